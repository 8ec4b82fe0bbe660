package main

// What the reports share: a measured rate with its Wilson interval, the
// heading of a report, and writing a file whole (atomically).

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rootbench/rootbench/analysis"
)

// Rate is one measured proportion with its 95% Wilson interval.
type Rate struct {
	Name  string  `json:"name"` // what is counted
	Hits  int     `json:"hits"`
	Of    int     `json:"of"`
	Rate  float64 `json:"rate"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Notes string  `json:"notes,omitempty"`
}

func newRate(name string, hits, of int, notes string) Rate {
	r := Rate{Name: name, Hits: hits, Of: of, Notes: notes}
	if of > 0 {
		r.Rate = float64(hits) / float64(of)
	}
	r.Lo, r.Hi = analysis.WilsonInterval(hits, of)
	return r
}

// heading starts a report in Markdown: its title, the paragraph that says
// how it is made, and the command that made it.
func heading(b *strings.Builder, title, how, command string) {
	fmt.Fprintf(b, "# %s\n\n%s\n\n- command: `%s`\n", title, how, command)
}

// writeJSON writes v to path as indented JSON, atomically.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return writeAtomic(path, append(data, '\n'))
}

// writeAtomic writes data to path through a temporary file renamed over it.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Chmod(0o644), tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
