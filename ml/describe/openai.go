package describe

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// OpenAIConfig locates an OpenAI-compatible chat-completions endpoint
// with a vision model.
type OpenAIConfig struct {
	// BaseURL is the API root that /chat/completions is appended to:
	// https://api.openai.com/v1, http://localhost:11434/v1 (Ollama),
	// http://localhost:8080/v1 (llama.cpp's server), vLLM's /v1.
	BaseURL string
	// Model is the vision model's name ("gpt-4o-mini", "llava").
	Model string
	// APIKey is sent as a Bearer token when set.
	APIKey string
	// Timeout bounds one request (default 60s).
	Timeout time.Duration
	// Client sends the requests (default: a new http.Client).
	Client *http.Client
}

// Validate checks that the endpoint and model are given.
func (c OpenAIConfig) Validate() error {
	var errs []error
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("base_url %q: want an http(s) URL such as https://api.openai.com/v1", c.BaseURL))
	}
	if strings.TrimSpace(c.Model) == "" {
		errs = append(errs, errors.New("model must be set"))
	}
	if c.Timeout < 0 {
		errs = append(errs, errors.New("timeout must not be negative"))
	}
	return errors.Join(errs...)
}

// OpenAI describes the preview image with a vision model behind an
// OpenAI-compatible POST {base_url}/chat/completions: the image goes as a
// base64 data URL (JPEG or PNG; other formats are converted to JPEG, which
// every server decodes), with the place, people and text already known as
// hints. An empty answer, a `refusal` or finish_reason "content_filter" is
// a refusal (""); an HTTP or network error is an error.
type OpenAI struct {
	cfg    OpenAIConfig
	client *http.Client
}

var _ Describer = (*OpenAI)(nil)

// NewOpenAI checks cfg and returns the describer.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("openai describer: %w", err)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	client := cfg.Client
	if client == nil {
		client = &http.Client{}
	}
	return &OpenAI{cfg: cfg, client: client}, nil
}

// Name implements Describer.
func (o *OpenAI) Name() string { return "openai:" + o.cfg.Model }

// maxDescription bounds a stored description, in bytes (as a user's
// metadata.description).
const maxDescription = 10_000

// prompt asks for what the spec's description holds.
const prompt = "You describe photos for the search of a personal photo library. In two or three plain sentences, " +
	"describe what the picture shows (people, animals, objects, scene, any text), its quality (sharpness, exposure) " +
	"and its composition (framing, where the subject is). No lists, no markdown."

// Describe implements Describer.
func (o *OpenAI) Describe(ctx context.Context, in Input) (string, error) {
	img, mime, err := sendable(in.Image, in.ImageType)
	if err != nil {
		return "", fmt.Errorf("describe with %s: %w", o.Name(), err)
	}
	body, err := json.Marshal(chatRequest{Model: o.cfg.Model, MaxTokens: 300, Temperature: 0,
		Messages: []chatMessage{
			{Role: "system", Content: prompt},
			{Role: "user", Content: []contentPart{
				{Type: "text", Text: hints(in)},
				{Type: "image_url", ImageURL: &imageURL{URL: "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(img)}},
			}},
		}})
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.cfg.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("describe with %s: %w", o.Name(), err)
	}
	req.Header.Set("Content-Type", "application/json")
	if o.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.cfg.APIKey)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("describe with %s: %w", o.Name(), err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("describe with %s: read the answer: %w", o.Name(), err)
	}
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("describe with %s: %s answered %s: %s", o.Name(), o.cfg.BaseURL, resp.Status, snippet(raw))
	}
	text, err := answer(raw)
	if err != nil {
		return "", fmt.Errorf("describe with %s: %w", o.Name(), err)
	}
	return text, nil
}

// hints is the user message's text: the request and what is known.
func hints(in Input) string {
	var known []string
	if in.Place != "" {
		known = append(known, "taken in "+in.Place)
	}
	if t := timeOfDay(in); t != "" {
		known = append(known, "taken "+t)
	}
	var names []string
	for _, f := range in.Faces {
		if f.Name != "" {
			names = append(names, f.Name)
		}
	}
	if len(names) > 0 {
		known = append(known, "people in it (left to right): "+strings.Join(names, ", "))
	}
	if q := quote(in.Text); q != "" {
		known = append(known, `text read in it: "`+q+`"`)
	}
	what := "photo"
	if in.Video {
		what = "video (this is one frame of it)"
	}
	s := "Describe this " + what + "."
	if len(known) > 0 {
		s += " Known: " + strings.Join(known, "; ") + "."
	}
	return s
}

// sendable returns the image in a format every server decodes (JPEG or
// PNG), converting others (WebP) to JPEG.
func sendable(img []byte, mime string) ([]byte, string, error) {
	if len(img) == 0 {
		return nil, "", errors.New("no image to describe")
	}
	if mime == "image/jpeg" || mime == "image/png" {
		return img, mime, nil
	}
	decoded, _, err := image.Decode(bytes.NewReader(img))
	if err != nil {
		return nil, "", fmt.Errorf("decode the %s image: %w", mime, err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, decoded, &jpeg.Options{Quality: 85}); err != nil {
		return nil, "", fmt.Errorf("encode the image as JPEG: %w", err)
	}
	return buf.Bytes(), "image/jpeg", nil
}

// answer reads the description out of a chat-completions response; a
// refusal is "".
func answer(raw []byte) (string, error) {
	var r chatResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", fmt.Errorf("read the answer: %w: %s", err, snippet(raw))
	}
	if len(r.Choices) == 0 {
		return "", fmt.Errorf("the answer has no choices: %s", snippet(raw))
	}
	c := r.Choices[0]
	if c.FinishReason == "content_filter" || c.Message.Refusal != nil && *c.Message.Refusal != "" {
		return "", nil
	}
	text := strings.TrimSpace(c.Message.text())
	if len(text) > maxDescription {
		text = text[:maxDescription]
		for !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
	}
	return text, nil
}

// snippet is the start of a response body, for error messages.
func snippet(raw []byte) string {
	s := strings.Join(strings.Fields(string(raw)), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	MaxTokens   int           `json:"max_tokens"`
	Temperature float64       `json:"temperature"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"` // a string, or []contentPart
}

type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type chatResponse struct {
	Choices []struct {
		Message      answerMessage `json:"message"`
		FinishReason string        `json:"finish_reason"`
	} `json:"choices"`
}

type answerMessage struct {
	// Content is a string, null, or (some servers) a list of parts.
	Content json.RawMessage `json:"content"`
	Refusal *string         `json:"refusal"`
}

// text returns the message's text, whatever form its content takes.
func (m answerMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []contentPart
	if json.Unmarshal(m.Content, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			if p.Type == "text" {
				b.WriteString(p.Text)
			}
		}
		return b.String()
	}
	return ""
}
