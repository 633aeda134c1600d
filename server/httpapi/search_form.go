package httpapi

import "mime/multipart"

// searchForm is the body of POST /api/search, for the OpenAPI document only
// (the handler streams the parts: search.go). Every field is optional; the
// rules are those of GET /api/search, with the image as one more criterion.
type searchForm struct {
	Image               *multipart.FileHeader `formData:"image" description:"A JPEG, PNG, GIF or WebP picture: finds assets with the same people and similar looks."`
	Query               string                `formData:"query" description:"Text to look for (descriptions, text in pictures, places, people, albums, file names, cameras)."`
	LibraryID           string                `formData:"library_id" description:"The library; required when the caller has several."`
	AlbumID             string                `formData:"album_id" description:"Only assets of this album."`
	PersonIDs           []string              `formData:"person_ids" description:"Only assets showing all these people (repeat the field or separate with commas)."`
	LocalDatetimeAfter  string                `formData:"local_datetime_after" description:"Capture time from (inclusive)."`
	LocalDatetimeBefore string                `formData:"local_datetime_before" description:"Capture time until (exclusive)."`
	Center              string                `formData:"center" description:"longitude,latitude, with radius."`
	Radius              string                `formData:"radius" description:"Metres around center."`
	BBox                string                `formData:"bbox" description:"min_longitude,min_latitude,max_longitude,max_latitude."`
	MediaType           string                `formData:"media_type" enum:"image,video" description:"Only images or only videos."`
	State               string                `formData:"state" enum:"live,trashed,all" description:"Lifecycle state; default live."`
	Include             string                `formData:"include" description:"variants: limit asset_urls to the renderings named in variants."`
	Variants            string                `formData:"variants" description:"thumbnail, preview, fullsize (comma-separated)."`
	Limit               string                `formData:"limit" description:"Page size, 1 to 200 (default 20)."`
	StartingAfterID     string                `formData:"starting_after_id" description:"The id of the last hit of the previous page (send the same image and fields)."`
}
