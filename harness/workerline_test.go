package harness

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestWorkerLineRoundTrip(t *testing.T) {
	t.Parallel()
	in := Run{
		WallNs: 123456789, Cells: 2048000, PassNs: []int64{100000000, 23456789},
		GC:        GC{Cycles: 3, CPUTotalNs: 5e6, CPUPercent: 12.5, MaxPauseNs: 80000, PeakHeapBytes: 1 << 24},
		Stats:     map[string]int64{"pools": 4, "remote_frees": 17},
		CPUUserNs: 200000000, CPUSysNs: 3000000,
		// Parent fields a worker should not set: dropped by the parser.
		Index: 9, StartedAt: time.Unix(1, 0), ProcessWallNs: 1, PeakRSSBytes: 2, Outlier: true,
		Env: &RunEnv{Load1: 3},
	}
	var buf bytes.Buffer
	if err := WriteWorkerLine(&buf, in); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 1 || !strings.HasSuffix(buf.String(), "\n") {
		t.Fatalf("worker line %q: want exactly one line", buf.String())
	}
	// The workload may print before the report; only the last JSON line counts.
	out := append([]byte("starting\n{\"not\": \"this one\"}\nlog line\n"), buf.Bytes()...)
	got, err := ParseWorkerOutput(out)
	if err != nil {
		t.Fatal(err)
	}
	want := Run{WallNs: in.WallNs, Cells: in.Cells, PassNs: in.PassNs, GC: in.GC, Stats: in.Stats, CPUUserNs: in.CPUUserNs, CPUSysNs: in.CPUSysNs}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
}

func TestParseWorkerOutputErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		out, want string
	}{
		{"", "malformed worker output: nothing on standard output"},
		{"hello\nworld\n", `malformed worker output: no JSON line on standard output (last line: "world")`},
		{`{"wall_ns": "fast"}`, "malformed worker output: json: cannot unmarshal"},
		{`{"wall_ns": 5, "surprise": 1}`, `unknown field "surprise"`},
		{`{"wall_ns": 5} {"wall_ns": 6}`, "trailing data"},
		{`{"wall_ns": 5`, "malformed worker output: unexpected EOF"},
		{`{}`, "wall_ns must be positive"},
		{`{"wall_ns": 5, "cells": -1}`, "cells not negative"},
		{`{"wall_ns": 10, "pass_ns": [4, 5]}`, "pass_ns sum to 9, but wall_ns is 10"},
		{`{"wall_ns": 5, "pass_ns": [6, -1]}`, "every pass must take positive time"},
		{`{"wall_ns": 5, "cpu_user_ns": -1}`, "cpu_user_ns and cpu_sys_ns must not be negative"},
		{`{"wall_ns": 5, "cpu_sys_ns": -2}`, "cpu_user_ns and cpu_sys_ns must not be negative"},
	} {
		_, err := ParseWorkerOutput([]byte(c.out))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseWorkerOutput(%q) error = %v, want it to contain %q", c.out, err, c.want)
		}
	}
	// A worker's own failure report is not malformed.
	r, err := ParseWorkerOutput([]byte(`{"failed": true, "error": "leak: 3 cells live"}`))
	if err != nil || !r.Failed || r.Error != "leak: 3 cells live" {
		t.Errorf("failure report: %+v, %v", r, err)
	}
	// Long garbage is quoted shortened.
	_, err = ParseWorkerOutput([]byte(strings.Repeat("x", 5000)))
	if err == nil || len(err.Error()) > 400 {
		t.Errorf("error for long garbage is %d bytes, want it shortened", len(err.Error()))
	}
}

func FuzzParseWorkerOutput(f *testing.F) {
	f.Add([]byte(`{"wall_ns": 5, "cells": 1}`))
	f.Add([]byte("log\n{\"wall_ns\": 1, \"gc\": {\"cycles\": 2}}\n"))
	f.Add([]byte(`{"failed": true}`))
	f.Add([]byte(`{"wall_ns": 9, "cells": 4, "pass_ns": [4, 5]}`))
	f.Add([]byte(`{"wall_ns": 9, "cells": 4, "cpu_user_ns": 7, "cpu_sys_ns": 1}`))
	f.Add([]byte("not json"))
	f.Fuzz(func(t *testing.T, out []byte) {
		r, err := ParseWorkerOutput(out)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "malformed worker output: ") {
				t.Fatalf("error %q does not say the output is malformed", err)
			}
			return
		}
		if r.Cells < 0 || (!r.Failed && r.WallNs <= 0) || r.CPUUserNs < 0 || r.CPUSysNs < 0 {
			t.Fatalf("accepted an impossible run %+v", r)
		}
		// What the parser accepts, the writer reproduces.
		var buf bytes.Buffer
		if err := WriteWorkerLine(&buf, r); err != nil {
			t.Fatal(err)
		}
		again, err := ParseWorkerOutput(buf.Bytes())
		if err != nil {
			t.Fatalf("re-parse of %q: %v", buf.Bytes(), err)
		}
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(again)
		if !bytes.Equal(a, b) {
			t.Fatalf("round trip changed the run:\n%s\n%s", a, b)
		}
	})
}

func TestCapture(t *testing.T) {
	t.Parallel()
	c := capture{headMax: 8, tailMax: 16}
	for _, s := range []string{"abc\n", "defghij\n", "klm\nnop\n", "qrs\n"} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if string(c.head) != "abc\ndefg" || string(c.tail) != "hij\nklm\nnop\nqrs\n" || c.total != 24 || !c.truncated() {
		t.Errorf("head %q tail %q total %d", c.head, c.tail, c.total)
	}
	// Head and tail together hold the whole stream: String gives it back.
	if got, want := c.String(), "abc\ndefghij\nklm\nnop\nqrs\n"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	c.Write([]byte("tuvw\n"))
	if got, want := c.String(), "abc\ndefg\n[... 5 bytes not kept ...]\nlm\nnop\nqrs\ntuvw\n"; got != want {
		t.Errorf("String() after overflow = %q, want %q", got, want)
	}
	if got := (&capture{headMax: 4, tailMax: 4}).String(); got != "" {
		t.Errorf("empty capture: String() = %q", got)
	}
	if got := beforeCrash(c.String(), 2); got != "qrs\ntuvw" {
		t.Errorf("beforeCrash(2) = %q", got)
	}
	if got := c.reason(); got != "tuvw" {
		t.Errorf("reason = %q, want the last line", got)
	}

	// A Go crash: the panic line, not the last line of the trace.
	p := capture{headMax: 1 << 10, tailMax: 1 << 10}
	p.Write([]byte("log\npanic: boxroot: invalid handle\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:9 +0x1d\nexit status 2\n"))
	if got := p.reason(); got != "panic: boxroot: invalid handle" {
		t.Errorf("reason = %q, want the panic line", got)
	}
	if got := beforeCrash(p.String(), 20); got != "log" {
		t.Errorf("beforeCrash = %q, want only what precedes the crash report", got)
	}
	f := capture{headMax: 1 << 10, tailMax: 1 << 10}
	f.Write([]byte("fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n"))
	if got := f.reason(); got != "fatal error: all goroutines are asleep - deadlock!" {
		t.Errorf("reason = %q, want the fatal error line", got)
	}
	if got := (&capture{}).reason(); got != "" {
		t.Errorf("empty stderr: reason %q", got)
	}
}
