// Package archtest holds tests that keep the import graph, and the package
// map of docs/architecture.md, as that page describes them. It has no code
// of its own.
package archtest
