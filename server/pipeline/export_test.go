package pipeline

// Classify is classify, for tests of steps run directly.
var Classify = classify
