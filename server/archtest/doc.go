// Package archtest holds tests that keep the import graph as
// docs/architecture.md describes it. It has no code of its own.
package archtest
