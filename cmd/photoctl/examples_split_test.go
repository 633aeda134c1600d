package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The example runner reads lines as a shell would; these are the shapes
// our help texts use.
func TestExampleLinesSplitLikeAShell(t *testing.T) {
	tests := []struct {
		name string
		line string
		want []shellCommand
	}{
		{"quotes make one word", `photoctl albums create "Summer 2024" --description 'Brittany and back'`,
			[]shellCommand{{args: []string{"albums", "create", "Summer 2024", "--description", "Brittany and back"}}}},
		{"a comment is dropped", `photoctl ls   # lists the Family archive`, []shellCommand{{args: []string{"ls"}}}},
		{"an empty quoted word stays", `photoctl albums edit X --description ""   # or --clear-description`,
			[]shellCommand{{args: []string{"albums", "edit", "X", "--description", ""}}}},
		{"a pipe feeds the next photoctl", `photoctl ls --json | jq -r '.[].id' | photoctl trash -`,
			[]shellCommand{{args: []string{"ls", "--json"}}, {args: []string{"trash", "-"}, piped: true}}},
		{"&& runs both", `photoctl upload ~/Pictures && photoctl tasks watch`,
			[]shellCommand{{args: []string{"upload", "/home/u/Pictures"}}, {args: []string{"tasks", "watch"}}}},
		{"a redirect is dropped", `photoctl completion fish > ~/.config/fish/completions/photoctl.fish`,
			[]shellCommand{{args: []string{"completion", "fish"}}}},
		{"$(...) runs what is inside", `KEY=$(photoctl keys create ci --action all --json | jq -r .secret)`,
			[]shellCommand{{args: []string{"keys", "create", "ci", "--action", "all", "--json"}}}},
		{"variables expand, not in single quotes", `photoctl login --api-key "$KEY" --x '$KEY'`,
			[]shellCommand{{args: []string{"login", "--api-key", "k3y", "--x", "$KEY"}}}},
		{"bin/photoctl is photoctl", `bin/photoctl whoami`, []shellCommand{{args: []string{"whoami"}}}},
	}
	w := &exampleWorld{home: "/home/u", vars: map[string]string{"KEY": "k3y"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, photoctlCommands(tt.line, w.expand))
		})
	}
}

func TestExampleParseFailuresAreTold(t *testing.T) {
	tests := []struct {
		stderr string
		want   bool
	}{
		{"photoctl: flag provided but not defined: -bogus\nRun 'photoctl get --help' for usage.\n", true},
		{"photoctl: want exactly one argument, the asset id\nRun 'photoctl edit --help' for usage.\n", true},
		{`photoctl: invalid value "50GB" for flag -quota: parse error`, true},
		{"photoctl: photoctl tui needs a terminal (use ls, search and friends in scripts)\nRun 'photoctl tui --help' for usage.\n", false},
		{"photoctl: asset asset_1: not found\n", false},
		{"photoctl: POST /api/faces: 422: body.timestamp_ms: timestamp_ms applies to faces in videos\n", false},
	}
	for _, tt := range tests {
		t.Run(strings.SplitN(tt.stderr, "\n", 2)[0], func(t *testing.T) {
			require.Equal(t, tt.want, isParseFailure(exampleResult{stderr: tt.stderr}))
		})
	}
}

func TestHelpExamplesAreFound(t *testing.T) {
	found := helpExamples(newApp(stubFactory(t)))
	require.Greater(t, len(found), 100, "every command's help has examples")
	for _, ex := range found {
		require.True(t, runsPhotoctl(ex.line), "%s: %q", ex.source, ex.line)
	}
	require.NotEmpty(t, readmeExamples(t))
}
