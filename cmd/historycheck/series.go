package main

// The synthetic series: how a point is drawn around its level (noise),
// and the levels of each kind of series (a shape, with the true steps).

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/rootbench/rootbench/analysis"
	"gonum.org/v1/gonum/stat/distuv"
)

// noise is how the points of a series are drawn around their levels.
type noise struct {
	runs  int     // runs per point; analysis takes the median of their logs
	cv    float64 // a run's coefficient of variation: distuv.Normal{Mu: level, Sigma: cv·level}
	build float64 // σ of each commit's build factor, distuv.LogNormal{Mu: 0, Sigma: build}; 0: none
}

// String names the noise model in the report's tables.
func (n noise) String() string {
	s := fmt.Sprintf("one run a point, CV %g%%", 100*n.cv)
	if n.runs > 1 {
		s = fmt.Sprintf("median of %d runs, CV %g%% each", n.runs, 100*n.cv)
	}
	if n.build > 0 {
		s += fmt.Sprintf(", build σ %g%%", 100*n.build)
	}
	return s
}

// draw returns the points of a series with the given levels: each commit's
// level times its build factor, then its runs around that.
func (n noise) draw(src rand.Source, levels []float64) []analysis.SeriesPoint {
	buildFactor := distuv.LogNormal{Mu: 0, Sigma: n.build, Src: src}
	pts := make([]analysis.SeriesPoint, len(levels))
	for i, level := range levels {
		if n.build > 0 {
			level *= buildFactor.Rand()
		}
		run := distuv.Normal{Mu: level, Sigma: n.cv * level, Src: src}
		pts[i].Values = make([]float64, n.runs)
		for j := range pts[i].Values {
			pts[i].Values[j] = run.Rand()
		}
	}
	return pts
}

// trial is one series' levels and its true steps (the first point of each
// new level).
type trial struct {
	levels []float64
	steps  []int
}

// shape makes the levels of a series; rng draws what varies (a step's
// position).
type shape struct {
	name string // identifies the shape in seeds and tables
	// what says, for the report, what the levels are.
	what   string
	points int
	make   func(rng *rand.Rand) trial
}

// stepShape is a step of factor among points, its first new point drawn
// uniformly from [from, to].
func stepShape(points int, factor float64, from, to int) shape {
	where := fmt.Sprintf("at a point drawn uniformly from %d to %d", from, to)
	if from == to {
		where = fmt.Sprintf("at point %d", from)
	}
	return shape{
		name:   fmt.Sprintf("step%d-%g-%d-%d", points, factor, from, to),
		what:   fmt.Sprintf("%d points, a step of %s %s (the first point of the new level; points count from 0)", points, change(factor), where),
		points: points,
		make: func(rng *rand.Rand) trial {
			at := from + rng.IntN(to-from+1)
			levels := make([]float64, points)
			for i := range levels {
				levels[i] = 1
				if i >= at {
					levels[i] = factor
				}
			}
			return trial{levels: levels, steps: []int{at}}
		},
	}
}

// flatShape is pure noise: every level 1.
func flatShape(points int) shape {
	return shape{
		name:   fmt.Sprintf("flat%d", points),
		what:   fmt.Sprintf("%d points, all at one level (pure noise)", points),
		points: points,
		make: func(*rand.Rand) trial {
			levels := make([]float64, points)
			for i := range levels {
				levels[i] = 1
			}
			return trial{levels: levels}
		},
	}
}

// creepShape is count steps of factor each, every gap points from point
// first on, in a series of points points.
func creepShape(points, count int, factor float64, first, gap int) shape {
	return shape{
		name: fmt.Sprintf("creep%d-%d-%g-%d-%d", points, count, factor, first, gap),
		what: fmt.Sprintf("%d points, %d steps of %s each at points %d, %d, …, %d (%s in all)",
			points, count, change(factor), first, first+gap, first+(count-1)*gap, change(pow(factor, count))),
		points: points,
		make: func(*rand.Rand) trial {
			t := trial{levels: make([]float64, points)}
			level := 1.0
			for i := range t.levels {
				if i >= first && (i-first)%gap == 0 && (i-first)/gap < count {
					level *= factor
					t.steps = append(t.steps, i)
				}
				t.levels[i] = level
			}
			return t
		},
	}
}

// change formats a factor as a signed percentage, to 0.1%: 1.05 is "+5%".
func change(factor float64) string {
	v := math.Round(1000*(factor-1)) / 10
	s := strconv.FormatFloat(v, 'f', -1, 64) + "%"
	if v > 0 {
		s = "+" + s
	}
	return s
}

func pow(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= x
	}
	return p
}

// source is the random source of series i of a shape under a noise model:
// fixed by the base seed, the shape, the noise and i, and by nothing the
// method's settings change, so that every setting sees the same series.
func source(seed uint64, sh shape, nz noise, i int) *rand.PCG {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%g/%g", sh.name, nz.runs, nz.cv, nz.build)
	return rand.NewPCG(seed, h.Sum64()+uint64(i))
}
