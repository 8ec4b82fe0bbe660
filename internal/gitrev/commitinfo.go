package gitrev

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CommitTime returns c's committer time (`git log -1 --format=%ct`), the
// time a history orders commits by: it is when the commit entered the
// branch it was made on, whatever its author date says. Only c.Hash is
// read: a full hash the repository does not have gives an error wrapping
// ErrUnknownRevision.
func (r *Repo) CommitTime(ctx context.Context, c Commit) (time.Time, error) {
	out, err := r.git(ctx, "log", "-1", "--no-show-signature", "--format=%ct", c.Hash, "--")
	var ge *gitError
	if errors.As(err, &ge) && ctx.Err() == nil {
		return time.Time{}, fmt.Errorf("%w %s in %s: %w", ErrUnknownRevision, c.Hash, r.Dir, err)
	}
	if err != nil {
		return time.Time{}, err
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("git log %s: unexpected committer time %q", c.Short, out)
	}
	return time.Unix(secs, 0).UTC(), nil
}

// Branch returns the local branch c is on: the checked-out branch when it
// contains c, else main or master when one does, else the first in name
// order of the branches that contain c; "" when no local branch does (a
// commit reached only by a tag or a remote branch, or a detached head's).
func (r *Repo) Branch(ctx context.Context, c Commit) (string, error) {
	// %(HEAD) is "*" for the checked-out branch, " " for the others.
	out, err := r.git(ctx, "for-each-ref", "--contains", c.Hash, "--format=%(HEAD)%(refname:short)", "refs/heads/")
	if err != nil {
		return "", err
	}
	var branches []string
	for line := range strings.SplitSeq(strings.TrimRight(out, "\n"), "\n") {
		if cur, ok := strings.CutPrefix(line, "*"); ok {
			return cur, nil
		}
		if name := strings.TrimSpace(line); name != "" {
			branches = append(branches, name)
		}
	}
	if len(branches) == 0 {
		return "", nil
	}
	for _, name := range []string{"main", "master"} {
		if slices.Contains(branches, name) {
			return name, nil
		}
	}
	slices.Sort(branches)
	return branches[0], nil
}

// subjectsPerCall bounds the hashes one git command is given.
const subjectsPerCall = 500

// Subjects returns the subject (first line of the message) of every
// commit of hashes (full hashes) the repository has, by hash; hashes it
// does not have are left out. It runs one git command per
// subjectsPerCall hashes.
func (r *Repo) Subjects(ctx context.Context, hashes []string) (map[string]string, error) {
	out := map[string]string{}
	for start := 0; start < len(hashes); start += subjectsPerCall {
		chunk := hashes[start:min(start+subjectsPerCall, len(hashes))]
		args := append([]string{"log", "--no-walk=unsorted", "--ignore-missing", "--no-show-signature", "--format=%H%x1f%s"}, chunk...)
		text, err := r.git(ctx, append(args, "--")...)
		if err != nil {
			return nil, err
		}
		for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
			if hash, subject, ok := strings.Cut(line, "\x1f"); ok {
				out[hash] = subject
			}
		}
	}
	return out, nil
}
