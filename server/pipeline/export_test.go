package pipeline

// Classify is classify, for tests of steps run directly.
var Classify = classify

// CreationCapture is creationCapture, for its table test.
var CreationCapture = creationCapture
