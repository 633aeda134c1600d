// Package ml declares the machine-learning capabilities the pipeline asks
// for — faces (detection, landmarks, embeddings) and text (OCR) — as
// interfaces with plain result types, and the error that says a capability
// cannot run here. Implementations live below it: ml/onnx runs ONNX models
// through ONNX Runtime, ml/faces and ml/ocr build on it. docs/ml.md says
// where the runtime and models come from and how fast they are.
//
// It never imports server or client packages; the server depends on these
// interfaces and skips its ML tasks, with ErrUnavailable's reason, when
// the runtime or a model is absent.
package ml
