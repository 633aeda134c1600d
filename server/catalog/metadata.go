package catalog

// Merged returns the metadata the API shows: each field from the user's
// edits when set, else from reverse geocoding, else from the file.
func (a *Asset) Merged() Metadata {
	return MergeMetadata(a.FileMeta, a.GeoMeta, a.UserMeta)
}

// MergeMetadata overlays layers in order: a later layer's non-nil field
// wins over an earlier one's.
func MergeMetadata(layers ...Metadata) Metadata {
	var out Metadata
	for i := range layers {
		out.overlay(&layers[i])
	}
	return out
}

// overlay sets each of m's fields that l sets. It is spelled out field by
// field rather than walked with reflect: every listed asset is merged, and
// reflection made the result and the layers escape to the heap (a tenth of
// a list page's allocations). TestMergeMetadataCoversEveryField fails when
// a new field is not listed here.
func (m *Metadata) overlay(l *Metadata) {
	over(&m.Make, l.Make)
	over(&m.Model, l.Model)
	over(&m.Orientation, l.Orientation)
	over(&m.ModifiedDatetime, l.ModifiedDatetime)
	over(&m.OriginalDatetime, l.OriginalDatetime)
	over(&m.DigitizedDatetime, l.DigitizedDatetime)
	over(&m.LensModel, l.LensModel)
	over(&m.FNumber, l.FNumber)
	over(&m.FocalLength, l.FocalLength)
	over(&m.ISO, l.ISO)
	over(&m.ExposureTime, l.ExposureTime)
	over(&m.ExposureBias, l.ExposureBias)
	over(&m.Latitude, l.Latitude)
	over(&m.Longitude, l.Longitude)
	over(&m.Altitude, l.Altitude)
	over(&m.City, l.City)
	over(&m.State, l.State)
	over(&m.Country, l.Country)
	over(&m.CountryCode, l.CountryCode)
	over(&m.Sublocation, l.Sublocation)
	over(&m.PlaceName, l.PlaceName)
	over(&m.Timezone, l.Timezone)
	over(&m.DisplayLabel, l.DisplayLabel)
	over(&m.Description, l.Description)
	over(&m.FPS, l.FPS)
	over(&m.LivePhotoCID, l.LivePhotoCID)
	over(&m.ProjectionType, l.ProjectionType)
	over(&m.AutoStackID, l.AutoStackID)
	over(&m.Rating, l.Rating)
	over(&m.ProfileDescription, l.ProfileDescription)
	over(&m.CaptureSource, l.CaptureSource)
	over(&m.SerialNumber, l.SerialNumber)
	over(&m.BurstID, l.BurstID)
}

func over[T any](dst **T, src *T) {
	if src != nil {
		*dst = src
	}
}
