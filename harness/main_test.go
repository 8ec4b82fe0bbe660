package harness

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeWorkerEnv makes the test binary act as a worker (the re-exec pattern):
// Benchmark.Args select what it does.
const fakeWorkerEnv = "HARNESS_TEST_FAKE_WORKER"

// sideEnv tells a "side" worker which side of an A/B session it is on.
const sideEnv = "HARNESS_TEST_SIDE"

// markerEnv names a file a "hang" worker writes its pids to once it runs.
const markerEnv = "HARNESS_TEST_MARKER"

func TestMain(m *testing.M) {
	if os.Getenv(fakeWorkerEnv) == "1" {
		os.Exit(fakeWorker(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeWorker behaves as args[0] says and returns the exit code.
//
//	ok [cells]       Measure a small allocating workload, print its line
//	sleep DUR        sleep, then print a line with wall_ns = DUR
//	panic            panic("boxroot: invalid handle")
//	exit3            print to stderr and exit 3
//	garbage          print lines that are not JSON
//	badjson          print a JSON object with a wrongly typed field
//	reportfail       print a line reporting a failed workload
//	sigkill          kill itself with SIGKILL
//	hang             start a child in the same process group, write both pids to $HARNESS_TEST_MARKER, sleep
//	pin CPUS         Pin, check every thread's affinity, print a line
//	side             print a line whose stats say $HARNESS_TEST_SIDE: base 1, head 2
func fakeWorker(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "fake worker: no mode")
		return 64
	}
	switch args[0] {
	case "ok":
		cells := int64(1000)
		if len(args) > 1 {
			cells, _ = strconv.ParseInt(args[1], 10, 64)
		}
		run, err := Measure(func() (int64, map[string]int64, error) {
			var keep [][]byte
			for i := 0; i < 1000; i++ {
				keep = append(keep, make([]byte, 64))
			}
			return cells, map[string]int64{"kept": int64(len(keep))}, nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return writeLine(run)
	case "sleep":
		d, err := time.ParseDuration(args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 64
		}
		time.Sleep(d)
		return writeLine(Run{WallNs: d.Nanoseconds(), Cells: 1})
	case "panic":
		fmt.Println("progress: half way")
		panic("boxroot: invalid handle")
	case "exit3":
		fmt.Fprintln(os.Stderr, "working...")
		fmt.Fprintln(os.Stderr, "something went wrong")
		return 3
	case "garbage":
		fmt.Println("hello")
		fmt.Println("not json at all")
		return 0
	case "badjson":
		fmt.Println(`{"wall_ns": "fast"}`)
		return 0
	case "reportfail":
		return writeLine(Run{Failed: true, Error: "wrong value in cell 7"})
	case "sigkill":
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Minute)
		return 0
	case "hang":
		child := exec.Command(os.Args[0], "sleep", "1m")
		child.Env = os.Environ()
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		pids := fmt.Sprintf("%d %d", os.Getpid(), child.Process.Pid)
		if err := os.WriteFile(os.Getenv(markerEnv), []byte(pids), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		time.Sleep(time.Minute)
		return 0
	case "side":
		v := map[string]int64{"base": 1, "head": 2}[os.Getenv(sideEnv)]
		return writeLine(Run{WallNs: 1000, Cells: 1, Stats: map[string]int64{"side": v}})
	case "pin":
		if err := Pin(args[1]); err != nil {
			fmt.Fprintln(os.Stderr, "pin:", err)
			return 1
		}
		want, _ := ParseCPUList(args[1])
		// Start more threads after pinning: they must inherit the mask.
		done := make(chan struct{})
		for i := 0; i < 4; i++ {
			go func() {
				runtime.LockOSThread()
				<-done
			}()
		}
		time.Sleep(20 * time.Millisecond)
		n, err := checkAffinity(want)
		close(done)
		if err != nil {
			fmt.Fprintln(os.Stderr, "affinity:", err)
			return 1
		}
		return writeLine(Run{WallNs: 1, Cells: 1, Stats: map[string]int64{"threads": int64(n)}})
	}
	fmt.Fprintf(os.Stderr, "fake worker: unknown mode %q\n", args[0])
	return 64
}

func writeLine(r Run) int {
	if err := WriteWorkerLine(os.Stdout, r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// bench is a fake-worker benchmark.
func bench(label string, args ...string) Benchmark {
	return Benchmark{Cell: strings.Fields(label)[0], Label: label, Params: map[string]string{"mode": args[0]}, Args: args}
}

// fakeOptions are options running the test binary as the worker.
func fakeOptions(t *testing.T, bs ...Benchmark) Options {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Benchmarks: bs,
		Executable: exe,
		// A race-enabled binary sleeps 1s at exit unless told not to.
		Env:      []string{fakeWorkerEnv + "=1", "GORACE=atexit_sleep_ms=0"},
		Workload: "fake",
		Unit:     "cell",
		MinTime:  -1,
		LogDir:   t.TempDir(),
	}
}
