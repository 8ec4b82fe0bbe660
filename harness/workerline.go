package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// WriteWorkerLine writes r as one line of JSON, the worker's report to the
// parent.
func WriteWorkerLine(w io.Writer, r Run) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode worker result: %w", err)
	}
	data = append(data, '\n')
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("write worker result: %w", err)
	}
	return nil
}

// maxQuoted bounds how much of a bad worker line an error message quotes.
const maxQuoted = 200

// ParseWorkerOutput finds the worker's report in its standard output: the
// last line that is a JSON object (anything the workload printed before it
// is ignored). Only the worker's fields are kept (the CPU time of the
// measured passes among them, 0 from a worker that does not report it):
// the parent's fields (Index, StartedAt, process figures, Env, Outlier) are
// cleared. A report with
// Failed set is returned as is: the caller records the worker's own error.
func ParseWorkerOutput(stdout []byte) (Run, error) {
	lines := bytes.Split(stdout, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		line := bytes.TrimSpace(lines[i])
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var r Run
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return Run{}, fmt.Errorf("malformed worker output: %v in %s", err, quote(line))
		}
		if dec.More() {
			return Run{}, fmt.Errorf("malformed worker output: trailing data after the JSON object in %s", quote(line))
		}
		if r.Cells < 0 || (!r.Failed && r.WallNs <= 0) {
			return Run{}, fmt.Errorf("malformed worker output: wall_ns must be positive and cells not negative in %s", quote(line))
		}
		if r.CPUUserNs < 0 || r.CPUSysNs < 0 {
			return Run{}, fmt.Errorf("malformed worker output: cpu_user_ns and cpu_sys_ns must not be negative in %s", quote(line))
		}
		if err := checkPasses(r); err != nil {
			return Run{}, fmt.Errorf("malformed worker output: %v in %s", err, quote(line))
		}
		return Run{WallNs: r.WallNs, Cells: r.Cells, PassNs: r.PassNs, GC: r.GC, Stats: r.Stats,
			CPUUserNs: r.CPUUserNs, CPUSysNs: r.CPUSysNs, Failed: r.Failed, Error: r.Error}, nil
	}
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 {
		return Run{}, fmt.Errorf("malformed worker output: nothing on standard output, expected a JSON line")
	}
	return Run{}, fmt.Errorf("malformed worker output: no JSON line on standard output (last line: %s)", quote(lastLine(trimmed)))
}

// checkPasses checks a successful run's pass_ns, when present: every pass
// took positive time, and the passes sum to wall_ns.
func checkPasses(r Run) error {
	if r.Failed || len(r.PassNs) == 0 {
		return nil
	}
	var sum int64
	for _, ns := range r.PassNs {
		if ns <= 0 {
			return fmt.Errorf("pass_ns %d: every pass must take positive time", ns)
		}
		sum += ns
	}
	if sum != r.WallNs {
		return fmt.Errorf("pass_ns sum to %d, but wall_ns is %d", sum, r.WallNs)
	}
	return nil
}

// quote quotes b for an error message, shortened to maxQuoted bytes.
func quote(b []byte) string {
	if len(b) > maxQuoted {
		return fmt.Sprintf("%q...", b[:maxQuoted])
	}
	return fmt.Sprintf("%q", b)
}

// lastLine returns the last non-empty line of b.
func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimRight(b, "\r\n\t "), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if l := bytes.TrimSpace(lines[i]); len(l) > 0 {
			return l
		}
	}
	return nil
}
