// Package ml declares the machine-learning capabilities the pipeline asks
// for (face detection and embedding, OCR, descriptions) and their
// implementations. It never imports server or client packages.
//
// Status: created with the foundation so the layout holds; the models
// arrive with the machine-learning issue (#8).
package ml
