package harness

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestMatchSides(t *testing.T) {
	t.Parallel()
	old, mid, cur := oldInfo("base (51c97ff)", false), oldInfo("head (8b5e1bb)", true), newInfo("head (new)")
	full := newInfo("").Defaults["msgpass"] // every parameter, as msgpass.Params.Map gives them
	without := func(m map[string]string, names ...string) map[string]string {
		m = maps.Clone(m)
		for _, n := range names {
			delete(m, n)
		}
		return m
	}
	with := func(m map[string]string, kv ...string) map[string]string {
		m = maps.Clone(m)
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	params := without(full, ParamWarmupPasses)
	for _, tc := range []struct {
		name     string
		workload string
		params   map[string]string
		sides    []*WorkerInfo
		want     map[string]string
		notes    []string
	}{
		{"old and new", "msgpass", params, []*WorkerInfo{old, cur},
			with(params, ParamPasses, "1", ParamWarmupPasses, "0"),
			[]string{"base (51c97ff) predates passes and the warm-up pass: both sides run 1 pass (instead of passes=3), no warm-up"}},
		{"old and new, one pass asked", "msgpass", with(params, ParamPasses, "1"), []*WorkerInfo{cur, old},
			with(params, ParamPasses, "1", ParamWarmupPasses, "0"),
			[]string{"base (51c97ff) predates passes and the warm-up pass: both sides run 1 pass, no warm-up"}},
		{"old and new, passes not given", "msgpass", without(params, ParamPasses), []*WorkerInfo{old, cur},
			with(params, ParamPasses, "1", ParamWarmupPasses, "0"),
			[]string{"base (51c97ff) predates passes and the warm-up pass: both sides run 1 pass, no warm-up"}},
		{"old and mid", "msgpass", params, []*WorkerInfo{old, mid},
			with(params, ParamPasses, "1"),
			[]string{"base (51c97ff) predates passes and the warm-up pass: both sides run 1 measured pass (instead of passes=3); head (8b5e1bb) always runs an unmeasured warm-up pass first (it predates warmup-passes), base (51c97ff) never does"}},
		{"old twice", "msgpass", params, []*WorkerInfo{old, oldInfo("head (51c97ff)", false)},
			with(params, ParamPasses, "1", ParamWarmupPasses, "0"),
			[]string{"base (51c97ff) and head (51c97ff) predate passes and the warm-up pass: both sides run 1 pass (instead of passes=3), no warm-up"}},
		{"mid and new", "msgpass", params, []*WorkerInfo{mid, cur}, params, nil},
		{"mid and new, warm-up as mid runs it", "msgpass", with(params, ParamWarmupPasses, "1"), []*WorkerInfo{mid, cur},
			with(params, ParamWarmupPasses, "1"), nil},
		{"new and new, no warm-up", "msgpass", with(params, ParamWarmupPasses, "0"), []*WorkerInfo{cur, newInfo("base")},
			with(params, ParamWarmupPasses, "0"), nil},
		{"callback across the history", "callback", map[string]string{"handle": "boxroot-handle", "threads": "2", "calls": "1000"},
			[]*WorkerInfo{old, mid, cur}, map[string]string{"handle": "boxroot-handle", "threads": "2", "calls": "1000"}, nil},
		{"env spellings", "msgpass", map[string]string{"BATCH_SIZE": "64", "niters": "1_000"}, []*WorkerInfo{cur, cur},
			map[string]string{"batch-size": "64", "niters": "1_000"}, nil},
		{"a new parameter at its default", "msgpass", with(params, "shards", "1"), []*WorkerInfo{newer("head (newer)", "shards", "1"), cur},
			params, []string{"head (new) has no msgpass parameter shards: the other sides run its default, 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, notes, err := MatchSides(tc.workload, tc.params, tc.sides...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) || !slices.Equal(notes, tc.notes) {
				t.Errorf("MatchSides:\n got %v\n     %q\nwant %v\n     %q", got, notes, tc.want, tc.notes)
			}
			// Every side renders the match, and no side is asked to run
			// a parameter it ignores.
			for _, s := range tc.sides {
				args, err := s.Args(WorkerRequest{Workload: tc.workload, Cell: "ocaml", Params: got})
				if err != nil {
					t.Errorf("%s: Args: %v", s.Name, err)
				}
				for _, a := range args {
					if name, _, ok := strings.Cut(a, "="); ok && !slices.Contains(s.Workloads[tc.workload], name) {
						t.Errorf("%s: renders %s, which it does not accept", s.Name, a)
					}
				}
			}
		})
	}
}

func TestMatchSidesRefuses(t *testing.T) {
	t.Parallel()
	old, mid, cur := oldInfo("base (51c97ff)", false), oldInfo("base (8b5e1bb)", true), newInfo("head")
	noCallback := oldInfo("base (nocgo)", false)
	delete(noCallback.Workloads, "callback")
	for _, tc := range []struct {
		name     string
		workload string
		params   map[string]string
		sides    []*WorkerInfo
		want     string
	}{
		{"workload a side lacks", "callback", nil, []*WorkerInfo{noCallback, cur}, "base (nocgo) has no callback workload (it has: msgpass)"},
		{"warm-up the old side cannot run", "msgpass", map[string]string{ParamWarmupPasses: "1"}, []*WorkerInfo{old, cur},
			"base (51c97ff) predates the warm-up pass: warmup-passes=1 cannot be expressed there (0 can)"},
		{"no warm-up on a side that always runs one", "msgpass", map[string]string{ParamWarmupPasses: "0"}, []*WorkerInfo{mid, cur},
			"base (8b5e1bb) always runs msgpass warmup-passes=1 (it has no parameter warmup-passes): warmup-passes=0 cannot be expressed there"},
		{"a new parameter off its default", "msgpass", map[string]string{"shards": "4"}, []*WorkerInfo{cur, newer("head (newer)", "shards", "1")},
			"head has no msgpass parameter shards, and shards=4 is not the default of head (newer)"},
		{"a parameter no side has", "msgpass", map[string]string{"shards": "1"}, []*WorkerInfo{old, cur},
			"base (51c97ff) and head have no msgpass parameter shards"},
		{"two spellings", "msgpass", map[string]string{"niters": "1", "NITERS": "2"}, []*WorkerInfo{cur}, "given twice"},
		{"no side", "msgpass", nil, nil, "no side"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := MatchSides(tc.workload, tc.params, tc.sides...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v; want one line saying %q", err, tc.want)
			}
		})
	}
}

// newer is a protocol 1 worker with one more msgpass parameter.
func newer(name, param, def string) *WorkerInfo {
	w := newInfo(name)
	w.Workloads["msgpass"] = append(slices.Clone(w.Workloads["msgpass"]), param)
	w.Defaults["msgpass"][param] = def
	return w
}

// MatchSides' contract, over any mix of the workers in the history and any
// parameters: a match renders on every side, gives every side the same value
// of each parameter it renders, runs one pass without a warm-up where a side
// predates passes, and announces every change to what was asked in a note.
func TestMatchSidesProperties(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		kinds := map[string]func(string) *WorkerInfo{
			"old":   func(n string) *WorkerInfo { return oldInfo(n, false) },
			"mid":   func(n string) *WorkerInfo { return oldInfo(n, true) },
			"new":   newInfo,
			"newer": func(n string) *WorkerInfo { return newer(n, "shards", "1") },
		}
		kindNames := slices.Sorted(maps.Keys(kinds))
		var sides []*WorkerInfo
		for i := range rapid.IntRange(1, 3).Draw(t, "sides") {
			k := rapid.SampledFrom(kindNames).Draw(t, "kind")
			sides = append(sides, kinds[k](fmt.Sprintf("side%d (%s)", i, k)))
		}
		names := append(split(oldParams), ParamPasses, ParamWarmupPasses, "shards")
		if rapid.Bool().Draw(t, "env spelling") {
			names[slices.Index(names, "batch-size")] = "BATCH_SIZE"
		}
		params := map[string]string{}
		for _, n := range names {
			if v := rapid.SampledFrom([]string{"", "", "", "0", "1", "3", "64"}).Draw(t, n); v != "" {
				params[n] = v
			}
		}
		common, notes, err := MatchSides("msgpass", params, sides...)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		rendered := map[string]string{}
		for _, s := range sides {
			args, err := s.Args(WorkerRequest{Workload: "msgpass", Cell: "ocaml", Params: common})
			if err != nil {
				t.Fatalf("%s cannot render the match %v: %v", s.Name, common, err)
			}
			for _, a := range args {
				if name, v, ok := strings.Cut(a, "="); ok {
					if prev, seen := rendered[name]; seen && prev != v {
						t.Fatalf("%s=%s on one side, %s on another", name, v, prev)
					}
					rendered[name] = v
				}
			}
		}
		asked, _ := canonicalParams(params)
		if !maps.Equal(common, asked) && len(notes) == 0 {
			t.Fatalf("asked %v, matched %v without a note", asked, common)
		}
		for _, s := range sides {
			if _, before := s.fixed("msgpass", ParamPasses); before && common[ParamPasses] != "1" {
				t.Fatalf("%s predates passes, but the match runs passes=%s", s.Name, common[ParamPasses])
			}
		}
	})
}
