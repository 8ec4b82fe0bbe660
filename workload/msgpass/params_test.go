package msgpass

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestDefaultParams(t *testing.T) {
	t.Parallel()
	p := DefaultParams()
	want := Params{Scheduler: Parallel, MaxDelay: 128, NIters: DefaultNIters, BatchSize: 1024,
		Producers: 1, Consumers: 1, Payload: Static, Queue: Shared, MaxOutstanding: 0, Passes: DefaultPasses}
	if p != want {
		t.Fatalf("DefaultParams() = %+v, want %+v", p, want)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("DefaultParams().Validate() = %v", err)
	}
	names := ParamNames()
	m := p.Map()
	if len(m) != len(names) {
		t.Fatalf("Map has %d entries, ParamNames %d", len(m), len(names))
	}
	for _, n := range names {
		if _, ok := m[n]; !ok {
			t.Errorf("Map lacks %q", n)
		}
	}
	names[0] = "clobbered"
	if ParamNames()[0] == "clobbered" {
		t.Error("ParamNames returns the package's own slice")
	}
}

func TestSetSpellings(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"batch-size", "BATCH_SIZE", "Batch_Size", "batch_size", "BATCH-SIZE"} {
		p := DefaultParams()
		if err := p.Set(name, "4_096"); err != nil {
			t.Fatalf("Set(%q): %v", name, err)
		}
		if p.BatchSize != 4096 {
			t.Errorf("Set(%q, 4_096): BatchSize = %d", name, p.BatchSize)
		}
	}
	p := DefaultParams()
	for _, kv := range [][2]string{
		{"SCHEDULER", "Concurrent"}, {"MAX_DELAY", "-1"}, {"NITERS", "100_000"}, {"producers", "3"},
		{"consumers", "64"}, {"PAYLOAD", "FRESH"}, {"queue", "per-consumer"}, {"MAX_OUTSTANDING", "8192"},
		{"PASSES", "1_0"},
	} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set(%q, %q): %v", kv[0], kv[1], err)
		}
	}
	want := Params{Scheduler: Concurrent, MaxDelay: -1, NIters: 100000, BatchSize: 1024,
		Producers: 3, Consumers: 64, Payload: Fresh, Queue: PerConsumer, MaxOutstanding: 8192, Passes: 10}
	if p != want {
		t.Fatalf("after Sets: %+v, want %+v", p, want)
	}
}

func TestSetErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, value, want string }{
		{"bogus", "1", "unknown parameter \"bogus\""},
		{"niters", "0", "niters 0: must be at least 1"},
		{"niters", "1e3", `niters: invalid number "1e3"`},
		{"batch-size", "0", "batch-size 0: out of range"},
		{"producers", "65", "producers 65: out of range: accepted: 1 to 64"},
		{"consumers", "", "consumers: invalid number"},
		{"max-outstanding", "-1", "max-outstanding -1: out of range"},
		{"max-delay", "1.5", `max-delay: invalid number "1.5"`},
		{"scheduler", "fast", `unknown scheduler "fast" (accepted: parallel, concurrent, sequential)`},
		{"payload", "warm", `unknown payload "warm"`},
		{"queue", "mpmc", `unknown queue "mpmc"`},
		{"passes", "0", "passes 0: out of range: accepted: 1 to 1000"},
		{"passes", "1001", "passes 1001: out of range"},
	}
	for _, c := range cases {
		p := DefaultParams()
		before := p
		err := p.Set(c.name, c.value)
		if err == nil {
			t.Errorf("Set(%q, %q): no error", c.name, c.value)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Set(%q, %q): error %q, want it to contain %q", c.name, c.value, err, c.want)
		}
		if p != before {
			t.Errorf("Set(%q, %q) failed but changed the params to %+v", c.name, c.value, p)
		}
	}
	err := (&Params{}).Set("bogus", "1")
	for _, n := range ParamNames() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("unknown-name error %q does not list %q", err, n)
		}
	}
}

func TestValidateErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mod  func(*Params)
		want string
	}{
		{func(p *Params) { p.NIters = 0 }, "niters 0: must be at least 1"},
		{func(p *Params) { p.Passes = 0 }, "passes 0: must be from 1 to 1000"},
		{func(p *Params) { p.BatchSize = -5 }, "batch-size -5"},
		{func(p *Params) { p.BatchSize = MaxBatchSize + 1 }, "batch-size 16777217"},
		{func(p *Params) { p.Producers = 0 }, "producers 0: must be from 1 to 64"},
		{func(p *Params) { p.Consumers = 65 }, "consumers 65: must be from 1 to 64"},
		{func(p *Params) { p.MaxOutstanding = 1000 }, "max-outstanding 1000: must be 0 (no bound) or at least batch-size (1024)"},
		{func(p *Params) { p.MaxOutstanding = -1 }, "max-outstanding -1"},
		{func(p *Params) { p.Scheduler = 7 }, "scheduler Scheduler(7): accepted: parallel, concurrent, sequential"},
		{func(p *Params) { p.Payload = -1 }, "payload Payload(-1)"},
		{func(p *Params) { p.Queue = 2 }, "queue Queue(2)"},
		{func(p *Params) { p.NIters, p.Producers = math.MaxInt64/1024, 2 }, "overflow int64"},
	}
	for _, c := range cases {
		p := DefaultParams()
		c.mod(&p)
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want an error containing %q", p, err, c.want)
		}
	}
	p := DefaultParams()
	p.NIters, p.Producers = math.MaxInt64/1024/64, 64
	if err := p.Validate(); err != nil {
		t.Errorf("the largest non-overflowing size: %v", err)
	}
}

// validModel is an independent statement of which Params are valid.
func validModel(p Params) bool {
	prod := new(big.Int).Mul(big.NewInt(int64(p.NIters)), big.NewInt(int64(p.BatchSize)))
	prod.Mul(prod, big.NewInt(int64(p.Producers)))
	return p.Scheduler >= 0 && p.Scheduler <= Sequential &&
		p.Payload >= 0 && p.Payload <= Fresh &&
		p.Queue >= 0 && p.Queue <= PerConsumer &&
		p.NIters >= 1 && p.BatchSize >= 1 && p.BatchSize <= MaxBatchSize &&
		p.Producers >= 1 && p.Producers <= MaxWorkers &&
		p.Consumers >= 1 && p.Consumers <= MaxWorkers &&
		(p.MaxOutstanding == 0 || p.MaxOutstanding >= p.BatchSize) &&
		p.Passes >= 1 && p.Passes <= MaxPasses &&
		prod.IsInt64()
}

func anyInt(lo, hi int) *rapid.Generator[int] {
	return rapid.OneOf(rapid.IntRange(lo, hi), rapid.Int(), rapid.SampledFrom([]int{0, 1, -1, 64, 65, math.MaxInt64, math.MinInt64}))
}

// TestValidateModel: Validate accepts exactly the valid parameters, and a
// valid Params survives Map then Set unchanged.
func TestValidateModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		p := Params{
			Scheduler:      Scheduler(rapid.IntRange(-1, 3).Draw(t, "scheduler")),
			MaxDelay:       rapid.Int().Draw(t, "max-delay"),
			NIters:         anyInt(1, 1000).Draw(t, "niters"),
			BatchSize:      anyInt(1, 4096).Draw(t, "batch-size"),
			Producers:      anyInt(1, 64).Draw(t, "producers"),
			Consumers:      anyInt(1, 64).Draw(t, "consumers"),
			Payload:        Payload(rapid.IntRange(-1, 2).Draw(t, "payload")),
			Queue:          Queue(rapid.IntRange(-1, 2).Draw(t, "queue")),
			MaxOutstanding: anyInt(0, 10000).Draw(t, "max-outstanding"),
			Passes:         anyInt(1, MaxPasses+1).Draw(t, "passes"),
		}
		err := p.Validate()
		if (err == nil) != validModel(p) {
			t.Fatalf("Validate(%+v) = %v, model says valid=%v", p, err, validModel(p))
		}
		if err != nil {
			named := false
			for _, n := range ParamNames() {
				named = named || strings.HasPrefix(err.Error(), n+" ")
			}
			if !named {
				t.Fatalf("Validate error %q does not start with a parameter name", err)
			}
			return
		}
		var q Params
		for name, v := range p.Map() {
			if err := q.Set(name, v); err != nil {
				t.Fatalf("Set(%q, %q) from Map: %v", name, v, err)
			}
		}
		if q != p {
			t.Fatalf("Map then Set: %+v, want %+v", q, p)
		}
	})
}

// TestSetModel: Set with any name in any spelling and any value never
// panics; a numeric parameter, when accepted, holds the number with '_'
// removed; a failed Set leaves the params unchanged.
func TestSetModel(t *testing.T) {
	t.Parallel()
	numeric := []string{"max-delay", "niters", "batch-size", "producers", "consumers", "max-outstanding"}
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(append(ParamNames(), "bogus", "")).Draw(t, "name")
		switch rapid.IntRange(0, 2).Draw(t, "spelling") {
		case 1:
			name = strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		case 2:
			name = strings.ReplaceAll(name, "-", "_")
		}
		value := rapid.OneOf(
			rapid.StringMatching(`[+-]?[0-9_]{0,8}`),
			rapid.SampledFrom([]string{"parallel", "SEQUENTIAL", "fresh", "static", "shared", "per-consumer", "1e3", " 1"}),
			rapid.String(),
		).Draw(t, "value")
		p := DefaultParams()
		before := p
		err := p.Set(name, value)
		canon, cerr := CanonicalName(name)
		if cerr != nil {
			if err == nil {
				t.Fatalf("Set(%q) of an unknown name succeeded", name)
			}
			return
		}
		if err != nil {
			if p != before {
				t.Fatalf("failed Set changed params: %+v", p)
			}
			if !strings.Contains(err.Error(), canon) {
				t.Fatalf("Set(%q, %q) error %q does not name %s", name, value, err, canon)
			}
			return
		}
		if slices.Contains(numeric, canon) {
			want, perr := strconv.ParseInt(strings.ReplaceAll(value, "_", ""), 10, 64)
			if perr != nil || p.Map()[canon] != strconv.FormatInt(want, 10) {
				t.Fatalf("Set(%q, %q) accepted; Map says %s, strconv says %d (%v)", name, value, p.Map()[canon], want, perr)
			}
		}
	})
}
