package exif

import (
	"strings"
	"time"
)

// stamp is one datetime tag as recorded.
type stamp struct {
	tag       string
	wall      time.Time // the reading, in the UTC location
	offset    *int      // recorded offset, seconds east of UTC
	offsetTag string    // where offset came from
	utc       bool      // a QuickTime date: the reading is UTC
}

// readStamp reads dateTag with its sub-second and offset companions, taken
// from the same source (a sidecar's date is not combined with the file's
// offset). An offset inside the value wins over the companion tag.
func readStamp(t tags, dateTag, subsecTag, offsetTag string) *stamp {
	v, src := t.lookup(false, dateTag)
	s, ok := text(v)
	if !ok {
		return nil
	}
	wall, off, ok := parseDateTime(s)
	if !ok {
		return nil
	}
	st := &stamp{tag: dateTag, wall: wall}
	if wall.Nanosecond() == 0 && subsecTag != "" {
		if sub, ok := text(src.fields[subsecTag]); ok {
			st.wall = wall.Add(time.Duration(fraction(sub)))
		}
	}
	switch {
	case off != nil:
		st.offset, st.offsetTag = off, dateTag
	case offsetTag != "":
		if o, ok := text(src.fields[offsetTag]); ok {
			if off, ok := parseOffset(o); ok {
				st.offset, st.offsetTag = &off, offsetTag
			}
		}
	}
	// QuickTime stores CreateDate and ModifyDate as UTC (exiftool prints
	// them unconverted without -api QuickTimeUTC, which would use the
	// server's zone). Some old cameras wrote local time there instead;
	// they cannot be told apart. A companion offset tag is the device's
	// zone: the same instant, read on the device's clock.
	if off == nil && !src.sidecar && isVideo(t) && (dateTag == "CreateDate" || dateTag == "ModifyDate") {
		if st.offset != nil {
			st.wall = st.wall.Add(time.Duration(*st.offset) * time.Second)
		} else {
			st.utc = true
		}
	}
	return st
}

func isVideo(t tags) bool {
	m := t.fileStr("MIMEType")
	return m != nil && strings.HasPrefix(*m, "video/")
}

// resolve places the stamp in zone when it has no offset of its own (zone
// is the GPS zone, or the camera's offset for dates other than the
// capture; nil when neither is known): the wall reading, its offset and
// where the offset came from. A UTC reading is an instant: without a zone
// it stays in UTC (offset 0, from the tag itself).
func (st *stamp) resolve(zone *time.Location) (wall time.Time, offset *int, from string) {
	switch {
	case st.offset != nil:
		return st.wall, st.offset, st.offsetTag
	case st.utc && zone != nil:
		local := st.wall.In(zone)
		_, off := local.Zone()
		return wallOf(local), &off, GPSDerivedOffset
	case st.utc:
		zero := 0
		return st.wall, &zero, st.tag
	case zone != nil:
		off := offsetAt(zone, st.wall)
		return st.wall, &off, GPSDerivedOffset
	}
	return st.wall, nil, ""
}

// format renders the stamp for the metadata object (a UTC reading
// without a zone with "Z").
func (st *stamp) format(zone *time.Location) *string {
	if st == nil {
		return nil
	}
	wall, off, _ := st.resolve(zone)
	s := formatDateTime(wall, off)
	return &s
}

// resolveDates fills the three datetimes, Capture and Timezone of m, whose
// position is already set.
func resolveDates(t tags, m *Metadata) {
	original := readStamp(t, "DateTimeOriginal", "SubSecTimeOriginal", "OffsetTimeOriginal")
	if original == nil {
		original = readStamp(t, "CreationDate", "", "") // Apple's QuickTime key, with offset
	}
	digitized := readStamp(t, "CreateDate", "SubSecTimeDigitized", "OffsetTimeDigitized")
	modified := readStamp(t, "ModifyDate", "SubSecTime", "OffsetTime")

	var zone *time.Location
	if m.Latitude != nil && m.Longitude != nil {
		zone = zoneAt(*m.Latitude, *m.Longitude)
	}
	capture := original
	if capture == nil {
		capture = digitized
	}
	// Dates without their own offset take the capture's recorded one (the
	// camera's clock), else the GPS zone's.
	fill := zone
	if capture != nil && capture.offset != nil {
		fill = time.FixedZone("", *capture.offset)
	}

	m.OriginalDatetime = original.format(fill)
	m.DigitizedDatetime = digitized.format(fill)
	m.ModifiedDatetime = modified.format(fill)
	if capture != nil {
		wall, off, from := capture.resolve(zone)
		m.Capture = &Capture{Wall: wall, Offset: off, Source: capture.tag, OffsetSource: from}
	}

	if zone == nil {
		return
	}
	if c := m.Capture; c != nil && c.Offset != nil && c.OffsetSource != GPSDerivedOffset {
		instant, _ := c.Instant()
		if _, off := instant.In(zone).Zone(); off != *c.Offset {
			return // the recorded offset is not this zone's: leave Timezone unknown
		}
	}
	name := zone.String()
	m.Timezone = &name
}
