package client

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"os"
)

// FilePart is a file to send in a multipart body, opened afresh for each
// attempt so that a retried request can send it again.
type FilePart struct {
	// Name is the file name sent in the part header.
	Name string
	// Open returns the content; the client closes it after the attempt.
	Open func() (io.ReadCloser, error)
	// Size is the exact length of the content, or -1 if unknown. A file
	// that turns out longer or shorter fails the upload instead of sending
	// a truncated copy.
	Size int64
}

// PathPart returns a FilePart for the file at path, sent as name.
func PathPart(path, name string) (FilePart, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return FilePart{}, err
	}
	if !fi.Mode().IsRegular() {
		return FilePart{}, fmt.Errorf("%s is not a regular file", path)
	}
	return FilePart{Name: name, Size: fi.Size(), Open: func() (io.ReadCloser, error) { return os.Open(path) }}, nil
}

// field is one form field of a multipart body.
type field struct{ name, value string }

// multipartBody builds a body of fields, then small parts read into memory
// (sidecars), then the file: a header, the file streamed from its reader,
// and the closing boundary. The file is never held in memory; progress,
// when set, is told of every chunk of it sent.
func multipartBody(fields []field, small map[string]FilePart, fileField string, file FilePart,
	progress func(int64)) (io.Reader, string, int64, func() error, error) {
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	for _, f := range fields {
		if err := mw.WriteField(f.name, f.value); err != nil {
			return nil, "", 0, nil, err
		}
	}
	for name, p := range small {
		if err := copySmallPart(mw, name, p); err != nil {
			return nil, "", 0, nil, err
		}
	}
	if _, err := mw.CreateFormFile(fileField, file.Name); err != nil {
		return nil, "", 0, nil, err
	}
	headLen := head.Len()
	if err := mw.Close(); err != nil {
		return nil, "", 0, nil, err
	}
	tail := bytes.Clone(head.Bytes()[headLen:])
	head.Truncate(headLen)

	rc, err := file.Open()
	if err != nil {
		return nil, "", 0, nil, err
	}
	src := &sourceReader{r: rc}
	var r io.Reader = src
	var exact *exactReader
	if file.Size >= 0 {
		exact = &exactReader{r: src, name: file.Name, left: file.Size}
		r = exact
	}
	if progress != nil {
		r = &progressReader{r: r, report: progress}
	}
	length := int64(-1)
	if file.Size >= 0 {
		length = int64(head.Len()) + file.Size + int64(len(tail))
	}
	body := io.MultiReader(&head, r, bytes.NewReader(tail))
	done := func() error {
		rc.Close()
		if exact != nil && exact.err != nil {
			return exact.err
		}
		return src.err
	}
	return body, mw.FormDataContentType(), length, done, nil
}

// maxSmallPart bounds a part read into memory (an XMP sidecar).
const maxSmallPart = 16 << 20

func copySmallPart(mw *multipart.Writer, name string, p FilePart) error {
	rc, err := p.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxSmallPart+1))
	if err != nil {
		return err
	}
	if len(data) > maxSmallPart {
		return fmt.Errorf("%s is larger than %d bytes", p.Name, maxSmallPart)
	}
	w, err := mw.CreateFormFile(name, p.Name)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// sourceReader remembers the first error reading the file failed with, so
// that a request failing because of it is not retried.
type sourceReader struct {
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// exactReader fails when its source ends before or runs past the expected
// size: a file that changes while it uploads is not stored truncated. Its
// err is the first such failure, or the source's own.
type exactReader struct {
	r    io.Reader
	name string
	left int64
	err  error
}

func (e *exactReader) Read(p []byte) (int, error) {
	n, err := e.read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

func (e *exactReader) read(p []byte) (int, error) {
	if e.left == 0 {
		// Probe for data beyond the expected end.
		var one [1]byte
		n, err := e.r.Read(one[:])
		if n > 0 {
			return 0, fmt.Errorf("%s grew while it was being sent", e.name)
		}
		if err == nil || err == io.EOF {
			return 0, io.EOF
		}
		return 0, err
	}
	if int64(len(p)) > e.left {
		p = p[:e.left]
	}
	n, err := e.r.Read(p)
	e.left -= int64(n)
	if err == io.EOF && e.left > 0 {
		return n, fmt.Errorf("%s shrank while it was being sent: %w", e.name, io.ErrUnexpectedEOF)
	}
	if err == io.EOF {
		err = nil
	}
	return n, err
}

// progressReader reports how many bytes pass through it.
type progressReader struct {
	r      io.Reader
	report func(int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.report(int64(n))
	}
	return n, err
}
