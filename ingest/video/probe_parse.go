package video

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// probeReport is the part of `ffprobe -print_format json -show_format
// -show_streams` that Info is made from.
type probeReport struct {
	Streams []probeStream `json:"streams"`
	Format  struct {
		FormatName string            `json:"format_name"`
		Duration   string            `json:"duration"`
		Tags       map[string]string `json:"tags"`
	} `json:"format"`
}

type probeStream struct {
	CodecType    string            `json:"codec_type"`
	CodecName    string            `json:"codec_name"`
	Width        int               `json:"width"`
	Height       int               `json:"height"`
	AvgFrameRate string            `json:"avg_frame_rate"`
	RFrameRate   string            `json:"r_frame_rate"`
	Duration     string            `json:"duration"`
	Tags         map[string]string `json:"tags"`
	Disposition  struct {
		AttachedPic int `json:"attached_pic"`
	} `json:"disposition"`
	SideDataList []struct {
		Rotation *float64 `json:"rotation"`
	} `json:"side_data_list"`
}

// parseProbe turns ffprobe's JSON report into an Info.
func parseProbe(data []byte) (*Info, error) {
	var r probeReport
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("parse ffprobe report: %w", err)
	}
	var video, audio *probeStream
	for i := range r.Streams {
		s := &r.Streams[i]
		switch {
		case s.CodecType == "video" && s.Disposition.AttachedPic == 0 && video == nil:
			video = s
		case s.CodecType == "audio" && audio == nil:
			audio = s
		}
	}
	if video == nil {
		return nil, ErrNoVideoStream
	}
	tags := r.Format.Tags
	info := &Info{
		Duration:   firstPositive(seconds(r.Format.Duration), seconds(video.Duration)),
		Rotation:   rotation(video),
		FPS:        firstPositive(rational(video.AvgFrameRate), rational(video.RFrameRate)),
		VideoCodec: video.CodecName,
		Container:  container(r.Format.FormatName, tag(tags, "major_brand")),
		Width:      video.Width,
		Height:     video.Height,
	}
	if info.Rotation == 90 || info.Rotation == 270 {
		info.Width, info.Height = info.Height, info.Width
	}
	if audio != nil {
		info.AudioCodec = audio.CodecName
	}
	info.CreationTime = creationTime(tag(tags, "com.apple.quicktime.creationdate"),
		tag(tags, "creation_time"), tag(video.Tags, "creation_time"))
	if p, ok := parseISO6709(firstNonEmpty(tag(tags, "com.apple.quicktime.location.ISO6709"),
		tag(tags, "location"), tag(tags, "location-eng"))); ok {
		info.Latitude, info.Longitude, info.Altitude = &p.lat, &p.lon, p.alt
	}
	info.Make = optional(firstNonEmpty(tag(tags, "com.apple.quicktime.make"), tag(tags, "make")))
	info.Model = optional(firstNonEmpty(tag(tags, "com.apple.quicktime.model"), tag(tags, "model")))
	info.LivePhotoCID = optional(tag(tags, "com.apple.quicktime.content.identifier"))
	return info, nil
}

// rotation returns the clockwise display rotation, 0, 90, 180 or 270.
// ffprobe 5 and later report the display matrix's angle, which turns
// counter-clockwise ("rotation": -90 for a portrait iPhone video); older
// ones a "rotate" tag that turns clockwise ("90").
func rotation(s *probeStream) int {
	deg := math.NaN()
	for _, sd := range s.SideDataList {
		if sd.Rotation != nil {
			deg = -*sd.Rotation
			break
		}
	}
	if math.IsNaN(deg) {
		v, err := strconv.ParseFloat(tag(s.Tags, "rotate"), 64)
		if err != nil {
			return 0
		}
		deg = v
	}
	if math.IsNaN(deg) || math.IsInf(deg, 0) {
		return 0
	}
	quarter := int(math.Round(deg/90)) % 4
	return (quarter + 4) % 4 * 90
}

// container names the file format. ffprobe names the whole ISO-BMFF
// family "mov,mp4,m4a,3gp,3g2,mj2"; the major brand tells them apart.
// Matroska and WebM ("matroska,webm") are told apart in Probe.
func container(formatName, majorBrand string) string {
	first, _, _ := strings.Cut(formatName, ",")
	if first != "mov" {
		return first
	}
	brand := strings.TrimSpace(majorBrand)
	switch {
	case brand == "qt":
		return "mov"
	case brand == "M4V" || brand == "M4VH" || brand == "M4VP":
		return "m4v"
	case strings.HasPrefix(brand, "3gp"):
		return "3gp"
	case strings.HasPrefix(brand, "3g2"):
		return "3g2"
	default:
		return "mp4"
	}
}

// creationLayouts are the forms creation times take: RFC 3339 with or
// without fractions (creation_time), Apple's offset without a colon
// (com.apple.quicktime.creationdate) and a bare UTC date-time.
var creationLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05-0700", "2006-01-02T15:04:05.999999999-0700", "2006-01-02 15:04:05"}

// creationTime returns the first of values that parses as a real date.
// Cameras without a clock write zero, which QuickTime stores as 1904 and
// ffprobe may print as 1970: those mean unknown.
func creationTime(values ...string) *time.Time {
	for _, v := range values {
		for _, layout := range creationLayouts {
			t, err := time.Parse(layout, strings.TrimSpace(v))
			if err == nil && t.Year() > 1970 {
				return &t
			}
		}
	}
	return nil
}

// tag returns a tag's value, matching its name without regard to case
// (Matroska writes tags in upper case). "" when absent.
func tag(tags map[string]string, name string) string {
	if v, ok := tags[name]; ok {
		return v
	}
	for k, v := range tags {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// seconds parses ffprobe's "12.345000"; 0 when absent or not a number.
func seconds(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0
	}
	return v
}

// rational parses a frame rate like "30000/1001"; 0 for "0/0" or junk.
func rational(s string) float64 {
	num, den, ok := strings.Cut(s, "/")
	if !ok {
		return seconds(s)
	}
	n, d := seconds(num), seconds(den)
	if d == 0 {
		return 0
	}
	return n / d
}

func firstPositive(values ...float64) float64 {
	for _, v := range values {
		if v > 0 {
			return v
		}
	}
	return 0
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// optional returns nil for "" and a pointer to the trimmed value otherwise.
func optional(s string) *string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	return &s
}
