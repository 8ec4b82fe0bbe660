package bisect

import "math/bits"

// bitset is a set of small non-negative integers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (s bitset) set(i int)      { s[i/64] |= 1 << (i % 64) }
func (s bitset) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }

func (s bitset) or(t bitset) {
	for i := range s {
		s[i] |= t[i]
	}
}

func (s bitset) and(t bitset) {
	for i := range s {
		s[i] &= t[i]
	}
}

func (s bitset) andNot(t bitset) {
	for i := range s {
		s[i] &^= t[i]
	}
}

func (s bitset) count() int {
	c := 0
	for _, w := range s {
		c += bits.OnesCount64(w)
	}
	return c
}

// countAnd returns the size of the intersection of s and t.
func (s bitset) countAnd(t bitset) int {
	c := 0
	for i, w := range s {
		c += bits.OnesCount64(w & t[i])
	}
	return c
}
