package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rootbench/rootbench/harness"
)

// checkExports refuses, before anything runs, export paths that cannot be
// written at the end: empty paths, directories, paths whose directory does
// not exist or is not writable (tried by creating and removing a file
// beside the target, which is how the export itself writes), and two
// exports to the same file or both to standard output.
func checkExports(targets []exportTarget) error {
	const accepted = "accepted: a file path in an existing, writable directory, or - for standard output"
	seen := map[string]string{} // cleaned absolute path (or "-") -> flag
	type existing struct {
		flag string
		fi   os.FileInfo
	}
	var files []existing // targets that exist already, to catch links
	for _, t := range targets {
		if t.path == "" {
			return fmt.Errorf("--%s: empty path: %s", t.flag, accepted)
		}
		key := t.path
		if t.path != "-" {
			abs, err := filepath.Abs(t.path)
			if err != nil {
				return fmt.Errorf("--%s %s: %w", t.flag, t.path, err)
			}
			key = abs
		}
		if other, dup := seen[key]; dup {
			return fmt.Errorf("--%s and --%s both write to %s: give each export its own file", other, t.flag, displayPath(t.path))
		}
		seen[key] = t.flag
		if t.path == "-" {
			continue
		}
		if fi, err := os.Stat(t.path); err == nil {
			if fi.IsDir() {
				return fmt.Errorf("--%s %s: is a directory: %s", t.flag, t.path, accepted)
			}
			for _, e := range files { // the same file under two names (a link)
				if os.SameFile(e.fi, fi) {
					return fmt.Errorf("--%s and --%s both write to %s: give each export its own file", e.flag, t.flag, t.path)
				}
			}
			files = append(files, existing{t.flag, fi})
		}
		if err := checkWritableDir(filepath.Dir(key)); err != nil {
			return fmt.Errorf("--%s %s: %w: %s", t.flag, t.path, err, accepted)
		}
	}
	return nil
}

// checkWritableDir reports whether a file can be created in dir: it must
// exist, be a directory, and accept a new file (created and removed at once).
func checkWritableDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("directory %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("directory %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".rootbench-write-check-*")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s", dir)
	}
	name := f.Name()
	cerr := f.Close()
	rerr := os.Remove(name)
	if cerr != nil || rerr != nil {
		return fmt.Errorf("cannot write a file in %s: %w", dir, errors.Join(cerr, rerr))
	}
	return nil
}

// checkPin checks a --pin CPU list: well formed, and every CPU present on
// this machine and in this process's affinity mask, so that no worker fails
// to pin itself. (harness.Pin makes the same check in each worker; this
// makes it once, before the first run.)
func checkPin(list string) error {
	cpus, err := harness.ParseCPUList(list)
	if err != nil {
		return err
	}
	return checkCPUsAllowed(cpus)
}

// displayPath names an export path in a message: "-" is standard output.
func displayPath(p string) string {
	if p == "-" {
		return "standard output"
	}
	return p
}
