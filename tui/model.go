package tui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// The views, in tab order; the keys 1–7 choose them.
var tabNames = [...]string{"Timeline", "Albums", "People", "Search", "Trash", "Tasks", "Libraries"}

const (
	tabTimeline = iota
	tabAlbums
	tabPeople
	tabSearch
	tabTrash
	tabTasks
	tabLibraries
)

// Model is the browser: a bubbletea model over one library of one server,
// reached only through package client. It is used by pointer; Update
// changes it in place.
type Model struct {
	opts   Options
	c      *client.Client
	ctx    context.Context
	keys   keyMap
	st     styles
	width  int
	height int
	tab    int

	libraryID, libraryName string
	libraries              *pager[api.Library]
	months                 *pager[api.AssetCount]
	albums                 *pager[api.Album]
	people                 *pager[api.Person]
	tasks                  *pager[api.Task]
	// opened is the asset list a tab shows instead of its own list: a
	// month, an album, a person, search results. Trash always shows one.
	opened [len(tabNames)]*assetView

	prompt    *prompt       // a line being typed (search, description)
	confirm   *confirmation // a yes/no question before a change
	rating    bool          // r was pressed: 0–5 sets the rating
	picker    *albumPicker  // choosing the album to add to
	help      bool
	status    string
	failed    bool // status is an error
	previews  map[string]*preview
	infos     map[string]*assetInfo // albums and people by asset id (assetinfo.go)
	taskTick  int                   // generation of the Tasks view's refresh ticks
	taskCount *taskCounts           // the Tasks header's counts (tasks.go), nil until counted
	usage     *api.StorageUsage     // the caller's storage use (usage.go), nil until loaded
	bgKnown   bool                  // the terminal told its background colour (st.dark)
}

// New returns the browser for opts; run it with tea.NewProgram.
func New(opts Options) *Model {
	opts.defaults()
	m := &Model{opts: opts, c: opts.Client, ctx: opts.Context, keys: newKeyMap(), st: newStyles(true),
		width: 80, height: 24, previews: map[string]*preview{}, infos: map[string]*assetInfo{}}
	m.libraries = newPager(opts.PageSize, func(l api.Library) string { return l.ID },
		func(ctx context.Context, after string, limit int) (*api.Page[api.Library], error) {
			return m.c.LibrariesPage(ctx, after, limit)
		})
	m.tasks = newTaskPager(m)
	m.setLibrary(opts.LibraryID, "")
	return m
}

// setLibrary makes id the library shown and forgets every list of the one
// before.
func (m *Model) setLibrary(id, name string) {
	m.libraryID, m.libraryName = id, name
	size, lib := m.opts.PageSize, id
	m.months = newPager(size, func(b api.AssetCount) string { return b.Bucket },
		func(ctx context.Context, after string, limit int) (*api.Page[api.AssetCount], error) {
			return m.c.AssetCounts(ctx, client.AssetQuery{LibraryID: lib}, "month", after, limit)
		})
	m.albums = newPager(size, func(a api.Album) string { return a.ID },
		func(ctx context.Context, after string, limit int) (*api.Page[api.Album], error) {
			return m.c.AlbumsPage(ctx, client.AlbumQuery{LibraryID: lib}, after, limit)
		})
	m.people = newPager(size, func(p api.Person) string { return p.ID },
		func(ctx context.Context, after string, limit int) (*api.Page[api.Person], error) {
			return m.c.PeoplePage(ctx, client.PersonQuery{LibraryID: lib}, after, limit)
		})
	m.opened = [len(tabNames)]*assetView{}
	m.opened[tabTrash] = m.assetList("Trash", client.AssetQuery{State: "trashed"}, client.AssetScope{})
	m.opened[tabTrash].trash = true
}

// Init loads the library (or the list to choose one from) and asks the
// terminal for its background colour: the answer comes as a message when
// the terminal gives one, so nothing waits for it.
func (m *Model) Init() tea.Cmd {
	ctx, want := m.ctx, m.libraryID
	return tea.Batch(func() tea.Msg {
		libs, err := client.Collect(m.c.Libraries(ctx))
		return libraryChosen{want: want, libs: libs, err: err}
	}, m.loadUsage(), tea.RequestBackgroundColor)
}

// libraryChosen is the caller's libraries, to open the one asked for.
type libraryChosen struct {
	want string
	libs []api.Library
	err  error
}

func (msg libraryChosen) apply(m *Model) tea.Cmd {
	if msg.err != nil {
		m.fail(msg.err)
		return nil
	}
	for _, l := range msg.libs {
		if l.ID == msg.want || (msg.want == "" && len(msg.libs) == 1) {
			m.setLibrary(l.ID, l.Name)
			return m.setTab(m.tab)
		}
	}
	switch {
	case msg.want != "":
		m.fail(fmt.Errorf("library %s: %w", msg.want, client.ErrNotFound))
	case len(msg.libs) == 0:
		m.fail(errors.New("you have no library yet"))
	default:
		m.inform("You have %d libraries: choose one and press enter.", len(msg.libs))
	}
	return m.setTab(tabLibraries)
}

// Update handles a message and returns the command to run next.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 20), max(msg.Height, 6)
		m.rescroll()
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.BackgroundColorMsg:
		m.st = newStyles(msg.IsDark())
		m.bgKnown = true
		return m, nil
	case applier:
		return m, msg.apply(m)
	}
	return m, nil
}

// setTab shows tab i and loads what it needs.
func (m *Model) setTab(i int) tea.Cmd {
	m.tab = i
	if m.libraryID == "" && i != tabLibraries {
		return nil
	}
	if v := m.opened[i]; v != nil {
		return tea.Batch(v.p.ensure(m.ctx), m.cursorMoved())
	}
	switch i {
	case tabTimeline:
		return m.months.ensure(m.ctx)
	case tabAlbums:
		return m.albums.ensure(m.ctx)
	case tabPeople:
		return m.people.ensure(m.ctx)
	case tabTasks:
		m.tasks.reset()
		m.taskTick++
		return tea.Batch(m.tasks.ensure(m.ctx), m.loadTaskCounts(), m.tickTasks())
	case tabLibraries:
		return m.libraries.ensure(m.ctx)
	}
	return nil
}

// view returns the asset list shown, or nil.
func (m *Model) view() *assetView {
	return m.opened[m.tab]
}

// fail shows err in the status line: the server's detail for API errors.
func (m *Model) fail(err error) {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) {
		m.status = errorText(apiErr)
	} else {
		m.status = err.Error()
	}
	m.failed = true
}

// inform shows a message in the status line.
func (m *Model) inform(format string, args ...any) {
	m.status, m.failed = fmt.Sprintf(format, args...), false
}

// rows is how many list rows the body has room for.
func (m *Model) rows() int { return max(1, m.height-4) }

// rescroll keeps every cursor on screen after a resize.
func (m *Model) rescroll() {
	rows := m.rows()
	m.months.scroll(rows)
	m.albums.scroll(rows)
	m.people.scroll(rows)
	m.tasks.scroll(rows)
	m.libraries.scroll(rows)
	for _, v := range m.opened {
		if v != nil {
			v.p.scroll(rows)
		}
	}
}
