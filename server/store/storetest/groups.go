package storetest

import (
	"testing"

	"github.com/photoctl/photoctl/server/store"
)

// RunExcept runs the suite like Run but skips the groups named in skip,
// each with its reason (a dialect built in stages lists the groups it does
// not implement yet). The skipped groups still appear, skipped, in the
// output; a name in skip that is not a group fails the test, so the list
// cannot outlive a rename.
func RunExcept(t *testing.T, open func(t *testing.T) store.Store, skip map[string]string) {
	known := map[string]bool{}
	for _, g := range suite() {
		known[g.name] = true
	}
	for name := range skip {
		if !known[name] {
			t.Fatalf("storetest: skip list names %q, which is not a group of the suite", name)
		}
	}
	for _, g := range suite() {
		t.Run(g.name, func(t *testing.T) {
			if reason, ok := skip[g.name]; ok {
				t.Skip(reason)
			}
			for _, c := range g.cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, open(t)) })
			}
		})
	}
}
