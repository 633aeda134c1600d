package exif

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"reflect"
	"syscall"
	"time"
	"unsafe"

	"github.com/barasher/go-exiftool"
)

// instance is one `exiftool -stay_open True -@ -` process.
type instance struct {
	et  *exiftool.Exiftool
	cmd *exec.Cmd // the process, for stop
	out io.Closer // the read end of its stdout, for stop
}

// outputLimit bounds one file's JSON. go-exiftool reads it with a
// bufio.Scanner whose default 64 KiB limit long XMP or maker notes exceed.
const outputLimit = 64 << 20

// options builds the exiftool invocation, apart from starting it. Every
// command runs as `exiftool -n -api LargeFileSupport=1 -api
// IgnoreMinorErrors=1 -j FILE` (the -j comes from go-exiftool): numbers
// unconverted (signed decimal GPS, ExposureTime in seconds, Orientation
// 1–8), files over 2 GiB read, minor errors reported as warnings. The
// testdata fixtures were printed with the same arguments.
func options(binary string) []func(*exiftool.Exiftool) error {
	return []func(*exiftool.Exiftool) error{
		exiftool.SetExiftoolBinaryPath(binary),
		exiftool.NoPrintConversion(),
		exiftool.Api("LargeFileSupport=1"),
		exiftool.Api("IgnoreMinorErrors=1"),
		exiftool.Buffer(make([]byte, 64<<10), outputLimit),
	}
}

// start runs a new exiftool process. binary is an absolute path; extra
// options follow the common ones.
func start(binary string, extra ...func(*exiftool.Exiftool) error) (*instance, error) {
	et, err := exiftool.NewExiftool(append(options(binary), extra...)...)
	// The guard script (guard_linux.go) was just written: a fork made by
	// another goroutine meanwhile holds its write descriptor until that
	// child execs, and exec then fails with ETXTBSY ("text file busy",
	// golang.org/issue/22315). The window is short: try again a few times.
	for try := 1; err != nil && errors.Is(err, syscall.ETXTBSY) && try <= 5; try++ {
		time.Sleep(time.Duration(try) * 10 * time.Millisecond)
		et, err = exiftool.NewExiftool(append(options(binary), extra...)...)
	}
	if err != nil {
		return nil, fmt.Errorf("start exiftool: %w", err)
	}
	cmd, out, err := handles(et)
	if err != nil {
		_ = et.Close() // idle, so Close does not block
		return nil, err
	}
	return &instance{et: et, cmd: cmd, out: out}, nil
}

// stop kills the process and reaps it. exiftool only reads, so killing it
// loses nothing, and it is the one way to end a process stuck on a file:
// go-exiftool's Close takes the mutex that the stuck ExtractMetadata holds
// and would block forever. Closing the output pipe lets that
// ExtractMetadata return. WaitDelay bounds the wait for a process whose
// children keep the pipes open.
func (in *instance) stop() {
	in.cmd.WaitDelay = time.Second
	_ = in.cmd.Process.Kill()
	_ = in.out.Close()
	_ = in.cmd.Wait() // "signal: killed" is the expected outcome
}

// handles reaches the process and the output pipe inside go-exiftool's
// Exiftool (fields cmd and stdMergedOut of v1.10.0), which it does not
// export: without them a hung process can be neither killed nor unblocked
// (ExtractMetadata takes no context). The field names and types are
// checked, so a go-exiftool that changes them makes NewPool fail and
// TestHandlesReachTheProcessOfGoExiftool say why, instead of leaking.
func handles(et *exiftool.Exiftool) (*exec.Cmd, io.Closer, error) {
	v := reflect.ValueOf(et).Elem()
	cmd, ok1 := unexported[*exec.Cmd](v, "cmd")
	out, ok2 := unexported[io.ReadCloser](v, "stdMergedOut")
	if !ok1 || !ok2 || cmd == nil || cmd.Process == nil || out == nil {
		return nil, nil, fmt.Errorf("start exiftool: go-exiftool no longer has the fields cmd and stdMergedOut; update handles in ingest/exif/process.go")
	}
	return cmd, out, nil
}

func unexported[T any](v reflect.Value, name string) (T, bool) {
	var zero T
	f := v.FieldByName(name)
	if !f.IsValid() || f.Type() != reflect.TypeFor[T]() {
		return zero, false
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(T), true
}
