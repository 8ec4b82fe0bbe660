package cli

// Main runs the rootbench command line with os.Args and exits with its
// status.
func Main() { main() }
