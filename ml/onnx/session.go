package onnx

import (
	"context"
	"errors"
	"fmt"
	"sync"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/photoctl/photoctl/ml"
)

// Tensor is a float32 tensor in row-major order: len(Data) is the product
// of Shape.
type Tensor struct {
	Shape []int64
	Data  []float32
}

// Port is one input or output of a model: its name and shape, where -1
// stands for a dimension the model leaves free.
type Port struct {
	Name  string
	Shape []int64
}

// SessionOptions tune one model's session.
type SessionOptions struct {
	// VaryingShapes is for models whose input size changes from run to run
	// (OCR): ONNX Runtime then does not plan memory for one shape, which
	// it would redo at every new size. (Its arena stays: without it the
	// OCR detector runs 3–4 times slower, measured.)
	VaryingShapes bool
}

// Session is one loaded model. Run is safe for concurrent use; the
// Runtime that opened it bounds how many runs execute at once and closes
// it.
type Session struct {
	rt      *Runtime
	name    string
	s       *ort.DynamicAdvancedSession
	inputs  []Port
	outputs []Port
}

// NewSession loads the model file name from the model directory into a
// session that runs on one thread. A missing model wraps
// ml.ErrUnavailable.
func (r *Runtime) NewSession(name string, opt SessionOptions) (*Session, error) {
	path, err := r.ModelPath(name)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ml.ErrClosed
	}
	in, out, err := ort.GetInputOutputInfo(path)
	if err != nil {
		return nil, unavailable(fmt.Errorf("read model %s: %w", path, err))
	}
	so, err := sessionOptions(opt)
	if err != nil {
		return nil, fmt.Errorf("onnx: session options: %w", err)
	}
	defer so.Destroy()
	s := &Session{rt: r, name: name, inputs: ports(in), outputs: ports(out)}
	s.s, err = ort.NewDynamicAdvancedSession(path, names(s.inputs), names(s.outputs), so)
	if err != nil {
		return nil, unavailable(fmt.Errorf("load model %s: %w", path, err))
	}
	r.sessions = append(r.sessions, s)
	return s, nil
}

func sessionOptions(opt SessionOptions) (*ort.SessionOptions, error) {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	err = errors.Join(
		so.SetIntraOpNumThreads(1),
		so.SetInterOpNumThreads(1),
		so.SetExecutionMode(ort.ExecutionModeSequential),
		so.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableAll),
		// One thread never waits for another: spinning would only burn
		// the core another image could use.
		so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"),
	)
	if err == nil && opt.VaryingShapes {
		err = so.SetMemPattern(false)
	}
	if err != nil {
		so.Destroy()
		return nil, err
	}
	return so, nil
}

func ports(info []ort.InputOutputInfo) []Port {
	p := make([]Port, len(info))
	for i, in := range info {
		p[i] = Port{Name: in.Name, Shape: append([]int64(nil), in.Dimensions...)}
	}
	return p
}

func names(ps []Port) []string {
	n := make([]string, len(ps))
	for i, p := range ps {
		n[i] = p.Name
	}
	return n
}

// Name is the model's file name.
func (s *Session) Name() string { return s.name }

// Inputs are the model's inputs in the order Run takes them.
func (s *Session) Inputs() []Port { return s.inputs }

// Outputs are the model's outputs in the order Run returns them.
func (s *Session) Outputs() []Port { return s.outputs }

// Run runs the model on inputs, given in the order of Inputs, and returns
// its outputs in the order of Outputs. It waits for a run slot; ctx
// cancels the wait and, through ONNX Runtime's terminate flag, a run in
// progress.
func (s *Session) Run(ctx context.Context, inputs ...Tensor) ([]Tensor, error) {
	if len(inputs) != len(s.inputs) {
		return nil, fmt.Errorf("onnx: %s takes %d inputs, got %d", s.name, len(s.inputs), len(inputs))
	}
	if err := s.rt.acquire(ctx); err != nil {
		return nil, err
	}
	defer s.rt.release()

	in := make([]ort.Value, len(inputs))
	defer destroyAll(in)
	for i, t := range inputs {
		v, err := ort.NewTensor(ort.NewShape(t.Shape...), t.Data)
		if err != nil {
			return nil, fmt.Errorf("onnx: %s input %s: %w", s.name, s.inputs[i].Name, err)
		}
		in[i] = v
	}
	out := make([]ort.Value, len(s.outputs)) // nil: ONNX Runtime allocates
	defer destroyAll(out)
	if err := s.runCancellable(ctx, in, out); err != nil {
		return nil, err
	}
	res := make([]Tensor, len(out))
	for i, v := range out {
		t, ok := v.(*ort.Tensor[float32])
		if !ok {
			return nil, fmt.Errorf("onnx: %s output %s is not a float32 tensor", s.name, s.outputs[i].Name)
		}
		res[i] = Tensor{Shape: append([]int64(nil), t.GetShape()...), Data: t.GetData()}
	}
	return res, nil
}

// runCancellable runs with a RunOptions whose terminate flag is raised
// when ctx ends, so a long run stops early.
func (s *Session) runCancellable(ctx context.Context, in, out []ort.Value) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	opts, err := ort.NewRunOptions()
	if err != nil {
		return fmt.Errorf("onnx: run options: %w", err)
	}
	var mu sync.Mutex // orders Terminate before Destroy
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if opts != nil {
			_ = opts.Terminate()
		}
	})
	err = s.s.RunWithOptions(in, out, opts)
	stop()
	mu.Lock()
	_ = opts.Destroy()
	opts = nil
	mu.Unlock()
	if ctxErr := ctx.Err(); ctxErr != nil && err != nil {
		return ctxErr
	}
	if err != nil {
		return fmt.Errorf("onnx: run %s: %w", s.name, err)
	}
	return nil
}

func (s *Session) destroy() error {
	if err := s.s.Destroy(); err != nil {
		return fmt.Errorf("onnx: release %s: %w", s.name, err)
	}
	return nil
}

func destroyAll(vs []ort.Value) {
	for _, v := range vs {
		if v != nil {
			_ = v.Destroy()
		}
	}
}
