package postgres

// ExplainIndexed is explainIndexed (explain_test.go) for this package's
// external tests.
var ExplainIndexed = explainIndexed
