package convert

import (
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/search"
)

// AssetIDs are the ids of converted assets, to look up their faces and
// people (people.Service.OfAssets) for AddPeople.
func AssetIDs(list []api.Asset) []string {
	ids := make([]string, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	return ids
}

// AddPeople sets the faces and people of converted assets from maps keyed
// by asset id, as people.Service.OfAssets returns them. With faces nil
// every asset keeps an empty list of faces: the MCP tools show names only.
func AddPeople(list []api.Asset, faces map[string][]catalog.Face, persons map[string][]catalog.Person) {
	for i := range list {
		a := &list[i]
		fs, ps := faces[a.ID], persons[a.ID]
		a.Faces, a.People = make([]api.Face, len(fs)), make([]api.Person, len(ps))
		for j := range fs {
			a.Faces[j] = Face(&fs[j])
		}
		for j := range ps {
			a.People[j] = Person(&ps[j])
		}
	}
}

// HitAssets converts the assets of search hits (variants as for Asset),
// for the caller to fill with AddPeople before SearchPage pairs them with
// their scores.
func HitAssets(hits []search.Hit, variants []string) []api.Asset {
	list := make([]api.Asset, len(hits))
	for i := range hits {
		list[i] = Asset(&hits[i].Asset, variants)
	}
	return list
}

// SearchPage pairs the converted assets of hits (HitAssets) with the
// hits' scores in a page.
func SearchPage(hits []search.Hit, list []api.Asset, more bool) api.Page[api.SearchHit] {
	out := api.Page[api.SearchHit]{Data: make([]api.SearchHit, len(hits)), HasMore: more}
	for i := range hits {
		out.Data[i] = api.SearchHit{Asset: list[i], Score: hits[i].Score}
	}
	return out
}

// bucketLayouts are the label formats of each bucket span.
var bucketLayouts = map[query.CountBucket]string{
	query.BucketYear: "2006", query.BucketMonth: "2006-01", query.BucketDay: "2006-01-02"}

// BucketLayout is the label format of a bucket span, as a time layout
// (2006, 2006-01 or 2006-01-02): how counts are labelled and how a cursor
// naming a bucket is read. ok is false for a span that is none of these.
func BucketLayout(b query.CountBucket) (layout string, ok bool) {
	layout, ok = bucketLayouts[b]
	return layout, ok
}

// Counts converts a page of counts, each bucket labelled in layout
// (BucketLayout).
func Counts(counts []query.BucketCount, more bool, layout string) api.Page[api.AssetCount] {
	return Page(counts, more, func(c *query.BucketCount) api.AssetCount {
		return api.AssetCount{Bucket: c.Start.Format(layout), Count: c.Count}
	})
}

// GeoClusters converts the clusters of assets on the map; never null.
func GeoClusters(cells []query.GeoCluster) []api.GeoCluster {
	out := make([]api.GeoCluster, len(cells))
	for i, g := range cells {
		out[i] = api.GeoCluster{Latitude: g.Latitude, Longitude: g.Longitude, Count: g.Count,
			RepresentativeAssetID: g.RepresentativeID}
	}
	return out
}
