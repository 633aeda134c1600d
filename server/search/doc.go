// Package search finds a library's assets by content: a text query ranked
// over the full-text index of their descriptions, text found in them,
// places, people, albums, file names and cameras; an image, by the people
// in it and by looks; and the asset list's filters.
package search
