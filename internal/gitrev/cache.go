package gitrev

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The build cache: where it lives, its key, its clean-up, and atomic writes
// into it.

// CacheEnv names the environment variable that moves rootbench's cache
// directory (CacheRoot): builds go to $ROOTBENCH_CACHE/builds instead of the
// user cache directory's rootbench/builds, and the default history store
// with them.
const CacheEnv = "ROOTBENCH_CACHE"

// recipe names the way builds are made; changing how a binary is built
// (flags, environment) changes it, so no binary of the old recipe is reused.
const recipe = "gitrev-1 go build -trimpath -buildvcs=true GOTOOLCHAIN=local"

// staleTemp is the age after which a temporary build directory left in the
// cache directory (by a killed build) is removed by the next build.
const staleTemp = 24 * time.Hour

// unusedAge is the age after which a cached binary or failure marker that
// no Build has returned is removed: what a bisection of a long range
// leaves (tens of megabytes per commit) does not stay for ever. A cache hit
// refreshes the entry's modification time (at most once per touchEvery),
// as the Go command's build cache does.
const (
	unusedAge  = 14 * 24 * time.Hour
	touchEvery = time.Hour
)

// CacheRoot returns rootbench's own directory for what it keeps between
// runs: $ROOTBENCH_CACHE when that variable is set, else rootbench in the
// user cache directory (os.UserCacheDir). Builds are cached in its builds
// directory (DefaultCacheDir); the history store's default file is in it
// too (package history). It is not created here.
func CacheRoot() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", fmt.Errorf("$%s=%s: %w", CacheEnv, d, err)
		}
		return abs, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for rootbench (set $%s): %w", CacheEnv, err)
	}
	return filepath.Join(d, "rootbench"), nil
}

// DefaultCacheDir returns the directory where builds are cached: builds in
// CacheRoot ($ROOTBENCH_CACHE/builds, else rootbench/builds in the user
// cache directory).
func DefaultCacheDir() (string, error) {
	root, err := CacheRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "builds"), nil
}

// prepare creates the cache directory, removes stale temporary directories
// from it, and returns it with the configuration key.
func (b *Builder) prepare(ctx context.Context) (dir, key string, err error) {
	if b.Repo == nil {
		return "", "", errors.New("build: Builder.Repo is nil")
	}
	dir = b.CacheDir
	if dir == "" {
		if dir, err = DefaultCacheDir(); err != nil {
			return "", "", err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("build cache: %w", err)
	}
	removeStale(dir, time.Now())
	// The key is computed once per Builder; a failure (a cancelled context)
	// is not kept, so a later call tries again.
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.key == "" {
		if b.key, err = b.configKey(ctx); err != nil {
			return "", "", err
		}
	}
	return dir, b.key, nil
}

// removeStale removes from the cache directory dir, as of now, the
// temporary files and directories last modified more than staleTemp ago (a
// build takes minutes, so only those left by a killed build are that old)
// and the cached binaries and failure markers unused for unusedAge (see
// touch). A binary removed while a session runs it stays readable to that
// session (Linux keeps an open or executing file until it is closed).
// Errors are ignored: a leftover is harmless.
func removeStale(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		age := unusedAge
		if strings.HasPrefix(e.Name(), ".tmp-") {
			age = staleTemp
		} else if !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(now.Add(-age)) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// touch marks the cache entry path as used now, unless that was done less
// than touchEvery ago. Errors are ignored: an entry not marked may only be
// rebuilt sooner.
func touch(path string) {
	now := time.Now()
	if fi, err := os.Stat(path); err == nil && now.Sub(fi.ModTime()) < touchEvery {
		return
	}
	_ = os.Chtimes(path, now, now)
}

// configKey digests everything but the source that shapes a binary: the
// recipe, Package, Tags (sorted), Env, and the Go command's version and
// target as `go env` reports them under the build's environment.
func (b *Builder) configKey(ctx context.Context) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH", "GOAMD64",
		"GOARM64", "GOEXPERIMENT", "CGO_ENABLED", "CC", "CGO_CFLAGS", "CGO_LDFLAGS", "GOFLAGS")
	cmd.Dir = b.Repo.Dir
	cmd.Env = b.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	goenv, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("go is needed to build revisions and was not found on PATH: %w", err)
		}
		return "", fmt.Errorf("go env: %w: %s", err, firstLine(stderr.String()))
	}
	tags := slices.Clone(b.Tags)
	slices.Sort(tags)
	h := sha256.New()
	for _, part := range []string{recipe, b.pkg(), strings.Join(tags, ","), strings.Join(b.Env, "\n"), string(goenv)} {
		fmt.Fprintf(h, "%d:%s\n", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// writeAtomic writes data to path through a temporary file in dir renamed
// into place, so path never holds part of data.
func writeAtomic(dir, path string, data []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
