// Package ingest holds the media processing that turns an upload into a
// described asset: exiftool metadata, ffprobe video facts, image variants,
// reverse geocoding, quality metrics and burst detection. It never imports
// server or client packages; the server calls it through interfaces.
//
// Status: created with the foundation so the layout holds; the pipeline
// arrives with the ingest issue (#4).
package ingest
