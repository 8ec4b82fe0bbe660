package harness

// maxrssUnit converts rusage's ru_maxrss to bytes: macOS reports bytes.
const maxrssUnit = 1
