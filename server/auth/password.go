package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters besides the cost.
const (
	argonThreads = 1
	argonKeyLen  = 32
)

// PasswordCost is the work of one argon2id password hash: its memory in
// KiB and its passes over it.
type PasswordCost struct {
	MemoryKiB, Passes uint32
}

// DefaultPasswordCost is OWASP's second recommended set (19 MiB, 2
// passes), what every account gets. Only the test harness, which makes
// thousands of accounts, asks for less; a hash records its own cost, so
// verifying needs none.
var DefaultPasswordCost = PasswordCost{MemoryKiB: 19 * 1024, Passes: 2}

// HashPassword returns an argon2id hash in PHC string format, at cost (the
// zero value means DefaultPasswordCost).
func HashPassword(password string, cost PasswordCost) (string, error) {
	if cost == (PasswordCost{}) {
		cost = DefaultPasswordCost
	}
	if cost.MemoryKiB < 8*argonThreads || cost.Passes < 1 {
		return "", fmt.Errorf("argon2id cost %d KiB × %d passes: at least %d KiB and 1 pass", cost.MemoryKiB, cost.Passes, 8*argonThreads)
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("read salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, cost.Passes, cost.MemoryKiB, argonThreads, argonKeyLen)
	scratch.release(cost.MemoryKiB)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, cost.MemoryKiB, cost.Passes,
		argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// dummyHash is verified against when a sign-in names no account, so that an
// unknown e-mail costs as much time as a wrong password. It is a constant
// (the hash of a password nobody has, with the parameters above) rather
// than computed at start: hashing costs 100 ms and 19 MB in every process,
// photoctl's CLI included. TestDummyHashCostsWhatAHashCosts keeps its
// parameters in step with HashPassword's.
const dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$EfKCpkhrmOOOZeHBfmcXbg$vam8Iuh8ia1iWFcuEHi0JC6M5SDfGQsR9Y470gDqMgk"

// VerifyPassword reports whether password matches the PHC-encoded hash, in
// constant time with respect to the key.
func VerifyPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("unsupported password hash format")
	}
	var version int
	var memory, passes uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errors.New("unsupported argon2 version")
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &passes, &threads); err != nil {
		return false, fmt.Errorf("parse argon2 parameters: %w", err)
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, fmt.Errorf("decode salt: %w", err)
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return false, fmt.Errorf("decode key: %w", err)
	}
	got := argon2.IDKey([]byte(password), salt, passes, memory, threads, uint32(len(want)))
	scratch.release(memory)
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// scratch hands the memory of finished argon2 computations back to the
// operating system. Each one allocates its 19 MiB work area on the Go heap
// and drops it; with the collector paced loosely (runtime.gc_percent 400 by
// default) that garbage would stay resident for minutes after a sign-in, a
// fifth of a quiet server's footprint. Sign-ins are rare and rate limited,
// so one forced collection after a burst of them is cheap.
var scratch returner

// returner runs debug.FreeOSMemory after bursts of release calls: once
// releaseQuiet has passed without another, and never more than one at a
// time.
type returner struct {
	once sync.Once
	kick chan struct{}
}

// releaseQuiet lets the hashes of concurrent sign-ins finish before the
// collection, so that a burst costs one.
const releaseQuiet = 50 * time.Millisecond

// returnFrom is the work area, in KiB, from which a hash's memory is
// worth handing back; smaller ones are ordinary garbage.
const returnFrom = 4 << 10

func (r *returner) release(memoryKiB uint32) {
	if memoryKiB < returnFrom {
		return
	}
	r.once.Do(func() {
		r.kick = make(chan struct{}, 1)
		go r.loop()
	})
	select {
	case r.kick <- struct{}{}:
	default: // a collection is already due
	}
}

func (r *returner) loop() {
	for range r.kick {
		time.Sleep(releaseQuiet)
		select {
		case <-r.kick: // released again meanwhile: this collection covers it
		default:
		}
		debug.FreeOSMemory()
	}
}
