package callback

import (
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestNames(t *testing.T) {
	t.Parallel()
	if got, want := Variants(), []string{"plain", "cthread", "pipe", "spin", "channel"}; !slices.Equal(got, want) {
		t.Errorf("Variants() = %v, want %v", got, want)
	}
	// The lists are copies: callers cannot corrupt the package's names.
	v := Variants()
	v[0] = "x"
	if Variants()[0] != "plain" {
		t.Error("Variants() returned the package's own slice")
	}
}

func TestDefaultParams(t *testing.T) {
	t.Parallel()
	p := DefaultParams()
	want := Params{Variant: "plain", Handle: "none", Threads: 1, Calls: 1_000_000}
	if p != want {
		t.Errorf("DefaultParams() = %+v, want %+v", p, want)
	}
	if err := p.Validate(); err != nil {
		t.Errorf("DefaultParams().Validate() = %v", err)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	ok := DefaultParams()
	for _, v := range Variants() {
		for _, h := range []string{"none", "NONE", "cgo-handle", "any-registered:name"} {
			p := ok
			p.Variant, p.Handle = v, h
			if err := p.Validate(); err != nil {
				t.Errorf("Validate(%+v) = %v", p, err)
			}
		}
	}
	loose := ok
	loose.Variant, loose.Handle = " Spin ", "CGO-Handle"
	if err := loose.Validate(); err != nil {
		t.Errorf("names are case-insensitive and trimmed, got %v", err)
	}
	edge := ok
	edge.Threads, edge.Calls = MaxThreads, 1
	if err := edge.Validate(); err != nil {
		t.Errorf("Validate(%+v) = %v", edge, err)
	}

	bad := []struct {
		name string
		mod  func(*Params)
		want []string // substrings of the error
	}{
		{"variant", func(p *Params) { p.Variant = "ucontext" }, []string{`variant "ucontext"`, "plain, cthread, pipe, spin, channel"}},
		{"empty variant", func(p *Params) { p.Variant = "" }, []string{`variant ""`, "accepted"}},
		{"empty handle", func(p *Params) { p.Handle = " " }, []string{`handle " "`, "accepted: none, or the name of a handle kind"}},
		{"handle list", func(p *Params) { p.Handle = "a,b" }, []string{`handle "a,b"`, "accepted: none"}},
		{"zero threads", func(p *Params) { p.Threads = 0 }, []string{"threads 0", "1..64"}},
		{"many threads", func(p *Params) { p.Threads = 65 }, []string{"threads 65", "1..64"}},
		{"zero calls", func(p *Params) { p.Calls = 0 }, []string{"calls 0", "at least 1"}},
		{"negative calls", func(p *Params) { p.Calls = -5 }, []string{"calls -5", "at least 1"}},
	}
	for _, tc := range bad {
		p := ok
		tc.mod(&p)
		err := p.Validate()
		if err == nil {
			t.Errorf("%s: Validate(%+v) = nil, want an error", tc.name, p)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, w)
			}
		}
	}
}

// bruteSum is the model of a run's sum: foo(x) = x + Addend over every x
// each thread calls, threads taking contiguous ranges, added with int64
// wrap-around as the C side does.
func bruteSum(calls int64, threads int) int64 {
	var s int64
	for t := range threads {
		start, n := split(calls, threads, t)
		for x := start; x < start+n; x++ {
			s += x + Addend
		}
	}
	return s
}

// split is the model of how the C side spreads calls over threads.
func split(calls int64, threads, t int) (start, n int64) {
	q, r := calls/int64(threads), calls%int64(threads)
	tt := int64(t)
	n = q
	if tt < r {
		n++
	}
	return tt*q + min(tt, r), n
}

func TestSplitCovers(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		calls := rapid.Int64Range(0, 100_000).Draw(t, "calls")
		threads := rapid.IntRange(1, MaxThreads).Draw(t, "threads")
		next := int64(0)
		for i := range threads {
			start, n := split(calls, threads, i)
			if start != next {
				t.Fatalf("thread %d starts at %d, want %d", i, start, next)
			}
			if q := calls / int64(threads); n != q && n != q+1 {
				t.Fatalf("thread %d makes %d calls, want %d or %d", i, n, q, q+1)
			}
			next = start + n
		}
		if next != calls {
			t.Fatalf("threads cover 0..%d, want 0..%d", next, calls)
		}
	})
}

func TestExpectedSum(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		calls := rapid.Int64Range(0, 20_000).Draw(t, "calls")
		threads := rapid.IntRange(1, 7).Draw(t, "threads")
		if got, want := ExpectedSum(calls), bruteSum(calls, threads); got != want {
			t.Fatalf("ExpectedSum(%d) = %d, brute force on %d threads %d", calls, got, threads, want)
		}
	})
	// Past about 2^32 calls the sum wraps modulo 2^64; the closed form
	// must wrap as adding one reply at a time does. Check against exact
	// arithmetic.
	mod := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, n := range []int64{1 << 33, 1<<33 + 1, 6_000_000_001, 1<<62 + 3} {
		bn := big.NewInt(n)
		want := new(big.Int).Mul(bn, new(big.Int).Sub(bn, big.NewInt(1)))
		want.Rsh(want, 1)
		want.Add(want, new(big.Int).Mul(bn, big.NewInt(Addend)))
		want.Mod(want, mod)
		if got := uint64(ExpectedSum(n)); got != want.Uint64() {
			t.Errorf("ExpectedSum(%d) = %d mod 2^64, want %d", n, got, want.Uint64())
		}
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	p := Params{Variant: "spin", Handle: "none", Threads: 3, Calls: 1000}
	if err := verify("spin", p, 1000, ExpectedSum(1000)); err != nil {
		t.Errorf("verify of a correct run = %v", err)
	}
	err := verify("spin", p, 1000, ExpectedSum(1000)-1)
	if err == nil || !strings.Contains(err.Error(), "spin") || !strings.Contains(err.Error(), "wrong sum") {
		t.Errorf("verify of a wrong sum = %v, want a wrong-sum error naming the variant", err)
	}
	err = verify("pipe", p, 999, ExpectedSum(999))
	if err == nil || !strings.Contains(err.Error(), "pipe") || !strings.Contains(err.Error(), "999 calls") {
		t.Errorf("verify of a short run = %v, want an error naming the variant and the count", err)
	}
}

func TestResultRates(t *testing.T) {
	t.Parallel()
	r := Result{Wall: 2 * time.Second, Calls: 4_000_000}
	if got := r.NsPerCall(); got != 500 {
		t.Errorf("NsPerCall = %v, want 500", got)
	}
	if got := r.CallsPerSecond(); got != 2_000_000 {
		t.Errorf("CallsPerSecond = %v, want 2e6", got)
	}
	if (Result{}).NsPerCall() != 0 || (Result{}).CallsPerSecond() != 0 {
		t.Error("rates of an empty result are not 0")
	}
}

func TestParamsSet(t *testing.T) {
	t.Parallel()
	p := DefaultParams()
	for _, kv := range [][2]string{{"variant", "pipe"}, {"HANDLE", "cgo-handle"}, {"threads", "3"}, {"calls", "10_000"}} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set(%s, %s): %v", kv[0], kv[1], err)
		}
	}
	if p != (Params{Variant: "pipe", Handle: "cgo-handle", Threads: 3, Calls: 10_000}) || p.Validate() != nil {
		t.Errorf("after Set: %+v (Validate: %v)", p, p.Validate())
	}
	for _, kv := range [][2]string{{"nosuch", "1"}, {"threads", "0"}, {"calls", "1e6"}} {
		if err := p.Set(kv[0], kv[1]); err == nil {
			t.Errorf("Set(%s, %s) succeeded", kv[0], kv[1])
		}
	}
}
