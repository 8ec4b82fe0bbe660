package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rootbench/rootbench/internal/gitrev"
)

// Env names the environment variable that chooses the store when no
// --history flag does: ROOTBENCH_HISTORY=PATH.
const Env = "ROOTBENCH_HISTORY"

// FileName is the default store's name in rootbench's cache directory
// (gitrev.CacheRoot: $ROOTBENCH_CACHE, else rootbench in the user cache
// directory, where ab's builds are cached too).
const FileName = "history.db"

// Path resolves where the store is: flag (a --history flag's value) when
// not empty, else $ROOTBENCH_HISTORY when set, else FileName in rootbench's
// cache directory. The flag beats the variable; a variable that is set
// must name a file (set and empty is refused). The path returned is
// absolute; nothing is created or checked on disk (Prepare does that).
func Path(flag string) (string, error) {
	p, from := flag, "--history"
	if p == "" {
		v, set := os.LookupEnv(Env)
		if set && v == "" {
			return "", fmt.Errorf("$%s is set and empty: set it to the store's file (or unset it for %s in rootbench's cache directory)", Env, FileName)
		}
		p, from = v, "$"+Env
	}
	if p == "" {
		root, err := gitrev.CacheRoot()
		if err != nil {
			return "", fmt.Errorf("no default history store: %w (or give --history PATH)", err)
		}
		return filepath.Join(root, FileName), nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", from, p, err)
	}
	return abs, nil
}

// Prepare checks that path can hold a store before anything is measured
// or added: it is not a directory, and its directory exists and can be
// written (SQLite writes its journal beside the store). The default
// store's directory, rootbench's own cache directory, is created; any
// other missing directory is refused. Nothing else is written: the
// probe file it creates to test the directory is removed.
func Prepare(path string) error {
	dir := filepath.Dir(path)
	if root, err := gitrev.CacheRoot(); err == nil && dir == root {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("history store %s: cannot create its directory: %w", path, err)
		}
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("history store %s is a directory: give a file's path", path)
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("history store %s: directory %s does not exist (create it, or choose another path)", path, dir)
	case err != nil:
		return fmt.Errorf("history store %s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("history store %s: %s is not a directory", path, dir)
	}
	probe, err := os.CreateTemp(dir, ".rootbench-history-probe-*")
	if err != nil {
		return fmt.Errorf("history store %s: directory %s cannot be written: %w", path, dir, cause(err))
	}
	probe.Close()
	if err := os.Remove(probe.Name()); err != nil {
		return fmt.Errorf("history store %s: %w", path, err)
	}
	return nil
}

// cause is err's underlying error when err is an *os.PathError (whose
// text repeats a path the message already names), else err.
func cause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
