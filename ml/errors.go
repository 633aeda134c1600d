package ml

import "errors"

// ErrUnavailable means a capability cannot run on this machine: the ONNX
// Runtime library or a model file is missing or does not load. Errors that
// wrap it say which file and how to get it (`make models`, docs/ml.md); the
// server logs that reason once and skips the ML tasks instead of failing
// them.
var ErrUnavailable = errors.New("ml unavailable")

// ErrClosed is returned by a capability used after its Close.
var ErrClosed = errors.New("ml: closed")
