package clock

import "sort"

// span is a half-open interval of Unix seconds, [from, to): a leave from
// 00:00 of its first day to 24:00 of its last.
type span struct{ from, to int64 }

// merge returns the union of spans as disjoint spans in order; touching
// spans are joined (two leaves back to back stop the clock throughout).
// Overlapping leave counts once: the union, not the sum (Decision C5).
func merge(spans []span) []span {
	if len(spans) == 0 {
		return nil
	}
	s := append([]span(nil), spans...)
	sort.Slice(s, func(i, j int) bool { return s[i].from < s[j].from })
	out := s[:1]
	for _, x := range s[1:] {
		last := &out[len(out)-1]
		if x.from <= last.to {
			last.to = max(last.to, x.to)
			continue
		}
		out = append(out, x)
	}
	return out
}

// effective returns the seconds in [a, b) that lie outside every span of
// union (disjoint, in order): the time a clock runs from a to b.
func effective(union []span, a, b int64) int64 {
	if b <= a {
		return 0
	}
	el := b - a
	for _, x := range union {
		lo, hi := max(x.from, a), min(x.to, b)
		if hi > lo {
			el -= hi - lo
		}
	}
	return el
}

// reach returns the first instant t ≥ a at which effective(union, a, t)
// reaches need seconds (need ≥ 0): the moment a clock started at a has run
// for need seconds, leave not counted.
func reach(union []span, a, need int64) int64 {
	t := a
	for _, x := range union {
		if need == 0 {
			return t
		}
		if x.to <= t {
			continue
		}
		if gap := x.from - t; gap > 0 {
			if need <= gap {
				return t + need
			}
			need -= gap
		}
		t = x.to
	}
	return t + need
}

// inside reports whether instant t lies in one of the spans.
func inside(spans []span, t int64) bool {
	for _, x := range spans {
		if x.from <= t && t < x.to {
			return true
		}
	}
	return false
}
