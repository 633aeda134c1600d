// Package pgtest gives tests a fresh PostgreSQL database each: on the
// server named by PHOTOCTL_TEST_DATABASE_URL, or else on a throwaway cluster
// it starts itself (initdb and pg_ctl from PATH or /usr/lib/postgresql/*/bin,
// run as an unprivileged user when the test runs as root). Without either,
// tests skip, unless PHOTOCTL_POSTGRES_REQUIRED=1 makes that a failure.
//
// A package using it calls Main from TestMain, so the cluster it started
// stops when the tests end.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// cluster is a server started by this process.
type cluster struct {
	dir, bin string
	owner    *user.User // nil: we run as ourselves
	url      string
}

var (
	startOnce  sync.Once
	started    *cluster
	serverURL  string
	serverErr  error
	skipReason string
)

// server returns the URL of the maintenance database of the server tests
// use, starting a cluster on first use; skip is set when there is none.
func server() (url, skip string, err error) {
	startOnce.Do(func() {
		if u := os.Getenv("PHOTOCTL_TEST_DATABASE_URL"); u != "" {
			serverURL = u
			return
		}
		bin := findBin()
		if bin == "" {
			skipReason = "no PostgreSQL: set PHOTOCTL_TEST_DATABASE_URL or install Debian's postgresql " +
				"(initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin)"
			return
		}
		started, serverErr = startCluster(bin)
		if serverErr == nil {
			serverURL = started.url
		}
	})
	return serverURL, skipReason, serverErr
}

// findBin returns the folder holding initdb and pg_ctl, or "".
func findBin() string {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p)
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	return ""
}

// version reads the major version out of /usr/lib/postgresql/N/bin.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// startCluster creates and starts a cluster in a new temporary folder on a
// free loopback port. PostgreSQL refuses to run as root: then the cluster
// belongs to the user "nobody" (or PG_USER).
func startCluster(bin string) (*cluster, error) {
	dir, err := os.MkdirTemp("", "photoctl-pgtest-")
	if err != nil {
		return nil, err
	}
	c := &cluster{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		name := os.Getenv("PG_USER")
		if name == "" {
			name = "nobody"
		}
		if c.owner, err = user.Lookup(name); err != nil {
			return nil, fmt.Errorf("postgres as root needs an unprivileged user: %w", err)
		}
		uid, _ := strconv.Atoi(c.owner.Uid)
		gid, _ := strconv.Atoi(c.owner.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
		"--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off -c synchronous_commit=off "+
		"-c full_page_writes=off -c max_connections=300 -c shared_buffers=64MB", port, dir)
	if out, err := c.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "server.log"), "-w", "-t", "60",
		"-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		c.stop()
		return nil, fmt.Errorf("pg_ctl start: %w\n%s\n%s", err, out, log)
	}
	c.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	return c, nil
}

// run runs one of the cluster's programs as the cluster's owner.
func (c *cluster) run(name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	prog := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.owner != nil {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", c.owner.Username, "--", prog}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, prog, args...)
	}
	cmd.Dir = c.dir
	return cmd.CombinedOutput()
}

// stop stops the server and removes its folder.
func (c *cluster) stop() {
	_, _ = c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
	_ = os.RemoveAll(c.dir)
}

// freePort returns a loopback port nothing listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// quoteIdent quotes a database name for SQL.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
