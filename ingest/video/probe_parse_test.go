package video

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// These reports are cut down from real ffprobe output, for the forms the
// installed ffprobe does not write.
func TestParseProbe(t *testing.T) {
	t.Run("an older ffprobe's clockwise rotate tag turns the size", func(t *testing.T) {
		info, err := parseProbe([]byte(`{"streams":[{"codec_type":"video","codec_name":"h264","width":1920,"height":1080,
			"avg_frame_rate":"30000/1001","tags":{"rotate":"90"}}],"format":{"format_name":"mov,mp4,m4a,3gp,3g2,mj2","duration":"3.003",
			"tags":{"major_brand":"qt  "}}}`))
		require.NoError(t, err)
		require.Equal(t, 90, info.Rotation)
		require.Equal(t, 1080, info.Width)
		require.Equal(t, 1920, info.Height)
		require.InDelta(t, 29.97, info.FPS, 0.001)
		require.Equal(t, "mov", info.Container)
	})
	t.Run("a display matrix turning counter-clockwise is read clockwise", func(t *testing.T) {
		for matrix, want := range map[string]int{"-90": 90, "90": 270, "180": 180, "-180": 180, "0": 0, "-89.99": 90} {
			info, err := parseProbe([]byte(`{"streams":[{"codec_type":"video","codec_name":"hevc","width":4,"height":2,
				"side_data_list":[{"side_data_type":"Display Matrix","rotation":` + matrix + `}]}],"format":{"format_name":"mov"}}`))
			require.NoError(t, err)
			require.Equal(t, want, info.Rotation, matrix)
		}
	})
	t.Run("a cover picture is not the video stream", func(t *testing.T) {
		info, err := parseProbe([]byte(`{"streams":[{"codec_type":"video","codec_name":"mjpeg","width":600,"height":600,
			"disposition":{"attached_pic":1}},{"codec_type":"video","codec_name":"av1","width":64,"height":48,"r_frame_rate":"24/1","avg_frame_rate":"0/0"},
			{"codec_type":"audio","codec_name":"opus"}],"format":{"format_name":"matroska,webm","duration":"1.5"}}`))
		require.NoError(t, err)
		require.Equal(t, "av1", info.VideoCodec)
		require.Equal(t, 64, info.Width)
		require.Equal(t, 24.0, info.FPS, "r_frame_rate stands in for a missing average")
		require.Equal(t, "opus", info.AudioCodec)
		require.Equal(t, "matroska", info.Container)
	})
	t.Run("audio with only a cover picture has no video stream", func(t *testing.T) {
		_, err := parseProbe([]byte(`{"streams":[{"codec_type":"audio","codec_name":"aac"},{"codec_type":"video","codec_name":"png",
			"disposition":{"attached_pic":1}}],"format":{"format_name":"mov"}}`))
		require.ErrorIs(t, err, ErrNoVideoStream)
	})
	t.Run("zero dates mean unknown and the stream's date stands in", func(t *testing.T) {
		info, err := parseProbe([]byte(`{"streams":[{"codec_type":"video","codec_name":"h264","tags":{"creation_time":"2023-12-24T18:30:00.000000Z"}}],
			"format":{"format_name":"mov","tags":{"creation_time":"1904-01-01T00:00:00.000000Z","com.apple.quicktime.creationdate":"1970-01-01T00:00:00+0000"}}}`))
		require.NoError(t, err)
		require.NotNil(t, info.CreationTime)
		require.True(t, info.CreationTime.Equal(time.Date(2023, 12, 24, 18, 30, 0, 0, time.UTC)))
	})
	t.Run("no tags leaves the optional fields nil", func(t *testing.T) {
		info, err := parseProbe([]byte(`{"streams":[{"codec_type":"video","codec_name":"mpeg4"}],"format":{"format_name":"avi","duration":"N/A"}}`))
		require.NoError(t, err)
		require.Equal(t, &Info{VideoCodec: "mpeg4", Container: "avi"}, info)
	})
	t.Run("QuickTime ©mak/©mod and location-eng are read, tags in any case", func(t *testing.T) {
		info, err := parseProbe([]byte(`{"streams":[{"codec_type":"video","codec_name":"h264"}],"format":{"format_name":"mov,mp4",
			"tags":{"major_brand":"3gp5","MAKE":"Canon","model":"PowerShot","location-eng":"-33.8688+151.2093/"}}}`))
		require.NoError(t, err)
		require.Equal(t, "3gp", info.Container)
		require.Equal(t, "Canon", *info.Make)
		require.Equal(t, "PowerShot", *info.Model)
		require.InDelta(t, -33.8688, *info.Latitude, 1e-9)
		require.Nil(t, info.Altitude)
	})
	t.Run("junk is an error", func(t *testing.T) {
		_, err := parseProbe([]byte(`{"streams":`))
		require.ErrorContains(t, err, "parse ffprobe report")
	})
}
