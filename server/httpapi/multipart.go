package httpapi

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"sync"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
)

// uploadReadSize is how much of an upload one read from the connection may
// take. mime/multipart reads its source 4 KiB at a time; without a larger
// buffer in between, every 4 KiB of an upload costs a system call, which
// was a third of the server's CPU time on 5 MB uploads.
const uploadReadSize = 256 << 10

// maxEpilogue bounds what is read after the multipart body's end.
const maxEpilogue = 64 << 10

var uploadReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, uploadReadSize) }}

// formReader reads the parts of a multipart upload from the request body.
type formReader struct {
	*multipart.Reader
	body *bufio.Reader // what the parts are read from
}

// multipartReader checks that the request is multipart/form-data and returns
// a reader over its parts that streams the body from the connection
// (through streamBody, so that a body cut short is an error, never a
// shorter upload). Call release when done with the reader.
func multipartReader(c *fiber.Ctx) (mr *formReader, release func(), err error) {
	mt, params, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != fiber.MIMEMultipartForm || params["boundary"] == "" {
		return nil, nil, catalog.InvalidField("value_error", "send the file as multipart/form-data with a part named file",
			c.Get(fiber.HeaderContentType), "header", "content-type")
	}
	var body io.Reader
	if stream := streamBody(c); stream != nil {
		body = stream
	} else {
		body = bytes.NewReader(c.Body()) // read whole by fasthttp, to its declared length
	}
	br := uploadReaders.Get().(*bufio.Reader)
	br.Reset(body)
	release = func() {
		// Read what follows the closing boundary (a chunked body's last
		// chunk, an epilogue), within reason, so the connection can carry
		// the next request.
		_, _ = io.Copy(io.Discard, io.LimitReader(br, maxEpilogue))
		br.Reset(nil)
		uploadReaders.Put(br)
	}
	return &formReader{multipart.NewReader(br, params["boundary"]), br}, release, nil
}

// nextPart returns the next part, io.EOF after the last, or a 422 for a
// malformed body. Before io.EOF it reads the body to its end: a body that
// ends before its declared length or without its last chunk (the client
// hung up) is a 400, and the upload must store nothing, even though its
// closing boundary came.
func nextPart(mr *formReader) (*multipart.Part, error) {
	part, err := mr.NextPart()
	if errors.Is(err, io.EOF) {
		n, err := io.Copy(io.Discard, io.LimitReader(mr.body, maxEpilogue+1))
		if err != nil {
			return nil, errBodyCut
		}
		if n > maxEpilogue {
			return nil, catalog.InvalidField("value_error", "too much after the multipart body's closing boundary", nil, "body")
		}
		return nil, io.EOF
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, errBodyCut
	}
	if err != nil {
		return nil, catalog.InvalidField("value_error", "malformed multipart body: "+err.Error(), nil, "body")
	}
	return part, nil
}

// errBodyCut answers an upload whose body ended early.
var errBodyCut = fiber.NewError(fiber.StatusBadRequest,
	"the request body ended early: short of its Content-Length, or without its last chunk")

// receivePart streams a file part into a new blob. On error the returned
// writer (if any) still needs Abort.
func (s *Server) receivePart(part *multipart.Part) (*blob.Writer, error) {
	w, err := s.assets.StartUpload()
	if err != nil {
		return nil, err
	}
	if _, err := w.ReadFrom(part); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return w, fiber.NewError(fiber.StatusBadRequest, "the upload ended before the file did")
		}
		return w, err
	}
	return w, nil
}

// receiveFilePart streams an upload's one file part (form field field)
// into a new blob writer, stored in *w, and takes its file name into in.
// A second file part is refused; *w keeps the first for the caller to
// abort.
func (s *Server) receiveFilePart(part *multipart.Part, field string, w **blob.Writer, in *assets.UploadInput) error {
	if *w != nil {
		return catalog.InvalidField("value_error", "send exactly one "+field+" part", nil, "body", field)
	}
	in.FileName = CleanFileName(part.FileName())
	var err error
	*w, err = s.receivePart(part)
	return err
}

// receiveSidecarPart keeps an upload's XMP sidecar part (form field
// field), bounded, in in.Sidecar for the ingest pipeline, which reads it
// beside the original. A second sidecar part is refused.
func (s *Server) receiveSidecarPart(part *multipart.Part, field string, in *assets.UploadInput) error {
	if in.Sidecar != nil {
		return catalog.InvalidField("value_error", "send at most one "+field+" part", nil, "body", field)
	}
	var err error
	if in.Sidecar, err = s.assets.StartSidecar(); err != nil {
		return err
	}
	if _, err := in.Sidecar.ReadFrom(part); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fiber.NewError(fiber.StatusBadRequest, "the upload ended before the sidecar did")
		}
		return err
	}
	return nil
}
