package celltest

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/cell"
)

// opKind is one action of the model-based check.
type opKind int

const (
	opCreate       opKind = iota // a domain roots a fresh value
	opGet                        // any domain reads any live cell
	opDeleteLocal                // a cell's (still open) creator deletes it
	opDeleteRemote               // another domain deletes a cell
	opReplace                    // a domain is closed and a fresh one takes its place
	numOps
)

var opNames = [numOps]string{"create", "get", "delete-local", "delete-remote", "replace-domain"}

// modelCell is a live cell and what the model knows of it.
type modelCell[C any] struct {
	c     C
	want  any
	owner int // id of the domain that created it
}

// model runs operations on an implementation and on a plain model of it
// (the set of live cells with their values) side by side.
type model[C any] struct {
	impl    cell.Impl[C]
	doms    []cell.Domain[C]
	domIDs  []int // id of the domain in each slot; a replacement gets a new id
	nextDom int
	cells   []modelCell[C] // live cells, in no particular order
	nextVal int64
	log     []string // operations so far, for error messages
}

func newModel[C any](impl cell.Impl[C], domains int) *model[C] {
	m := &model[C]{impl: impl}
	for range domains {
		m.doms = append(m.doms, impl.NewDomain())
		m.domIDs = append(m.domIDs, m.nextDom)
		m.nextDom++
	}
	return m
}

// apply performs one operation. pick(label, n) chooses an index in [0, n).
// It reports skip when the operation does not apply to the current state
// (nothing to delete, no other domain).
func (m *model[C]) apply(k opKind, pick func(label string, n int) int) (skip bool, err error) {
	switch k {
	case opCreate:
		s := pick("domain", len(m.doms))
		v := makeValue(m.nextVal)
		m.nextVal++
		c := m.doms[s].Create(v)
		m.cells = append(m.cells, modelCell[C]{c: c, want: v, owner: m.domIDs[s]})
		m.note("create in slot %d (domain %d): value %d", s, m.domIDs[s], m.nextVal-1)
	case opGet:
		if len(m.cells) == 0 {
			return true, nil
		}
		i, s := pick("cell", len(m.cells)), pick("domain", len(m.doms))
		mc := m.cells[i]
		m.note("get cell of domain %d from domain %d", mc.owner, m.domIDs[s])
		if err := checkSame(m.doms[s].Get(mc.c), mc.want); err != nil {
			return false, m.fail(err)
		}
	case opDeleteLocal:
		var cands []int
		for i, mc := range m.cells {
			if m.slotOf(mc.owner) >= 0 {
				cands = append(cands, i)
			}
		}
		if len(cands) == 0 {
			return true, nil
		}
		i := cands[pick("cell", len(cands))]
		s := m.slotOf(m.cells[i].owner)
		m.note("delete cell of domain %d locally", m.domIDs[s])
		m.doms[s].Delete(m.cells[i].c)
		m.remove(i)
	case opDeleteRemote:
		var cands []int
		for i, mc := range m.cells {
			if len(m.doms) > 1 || m.slotOf(mc.owner) < 0 {
				cands = append(cands, i)
			}
		}
		if len(cands) == 0 {
			return true, nil
		}
		i := cands[pick("cell", len(cands))]
		var others []int
		for s, id := range m.domIDs {
			if id != m.cells[i].owner {
				others = append(others, s)
			}
		}
		s := others[pick("domain", len(others))]
		m.note("delete cell of domain %d from domain %d", m.cells[i].owner, m.domIDs[s])
		m.doms[s].Delete(m.cells[i].c)
		m.remove(i)
	case opReplace:
		s := pick("domain", len(m.doms))
		m.note("close domain %d, replace it with domain %d", m.domIDs[s], m.nextDom)
		m.doms[s].Close()
		m.doms[s] = m.impl.NewDomain()
		m.domIDs[s] = m.nextDom
		m.nextDom++
	default:
		return false, fmt.Errorf("unknown operation %d (accepted: 0..%d)", k, numOps-1)
	}
	return false, nil
}

// finish reads and deletes every live cell, closes every domain and checks
// the live count.
func (m *model[C]) finish() error {
	for i, mc := range m.cells {
		d := m.doms[i%len(m.doms)]
		if err := checkSame(d.Get(mc.c), mc.want); err != nil {
			return m.fail(fmt.Errorf("final read: %w", err))
		}
		d.Delete(mc.c)
	}
	m.cells = nil
	for _, d := range m.doms {
		d.Close()
	}
	m.doms = nil
	if err := checkLive(m.impl, 0, "model: every cell deleted, every domain closed"); err != nil {
		return m.fail(err)
	}
	return nil
}

func (m *model[C]) slotOf(domID int) int {
	for s, id := range m.domIDs {
		if id == domID {
			return s
		}
	}
	return -1
}

func (m *model[C]) remove(i int) {
	last := len(m.cells) - 1
	m.cells[i] = m.cells[last]
	m.cells = m.cells[:last]
}

func (m *model[C]) note(format string, args ...any) {
	const keep = 20
	if len(m.log) == keep {
		copy(m.log, m.log[1:])
		m.log = m.log[:keep-1]
	}
	m.log = append(m.log, fmt.Sprintf(format, args...))
}

func (m *model[C]) fail(err error) error {
	return fmt.Errorf("model: %w\nlast operations:\n  %s", err, strings.Join(m.log, "\n  "))
}

// modelProperty is the rapid state machine: a random number of domains,
// then random operations, each Get compared with the model; at the end every
// cell is deleted, every domain closed and the live count checked.
func modelProperty[C any](rt *rapid.T, newImpl func() cell.Impl[C]) {
	m := newModel(newImpl(), rapid.IntRange(1, 4).Draw(rt, "domains"))
	actions := map[string]func(*rapid.T){}
	for k := range numOps {
		actions[opNames[k]] = func(rt *rapid.T) {
			pick := func(label string, n int) int { return rapid.IntRange(0, n-1).Draw(rt, label) }
			skip, err := m.apply(k, pick)
			if skip {
				rt.Skip("not applicable now")
			}
			if err != nil {
				rt.Fatal(err)
			}
		}
	}
	rt.Repeat(actions)
	if err := m.finish(); err != nil {
		rt.Fatal(err)
	}
}

// runModelSeeded runs n random operations drawn from rnd (weighted towards
// creates and gets) and then finishes the model; it is the model check
// without rapid's search, used to test the kit itself.
func runModelSeeded[C any](impl cell.Impl[C], domains, n int, rnd func(n int) int) error {
	m := newModel(impl, domains)
	weights := [numOps]int{opCreate: 6, opGet: 6, opDeleteLocal: 2, opDeleteRemote: 3, opReplace: 1}
	total := 0
	for _, w := range weights {
		total += w
	}
	pick := func(_ string, n int) int { return rnd(n) }
	for range n {
		r := rnd(total)
		k := opKind(0)
		for r >= weights[k] {
			r -= weights[k]
			k++
		}
		if _, err := m.apply(k, pick); err != nil {
			return err
		}
	}
	return m.finish()
}
