// Package resultcache keeps simulation outputs in a compact columnar form so
// that an output file (.outb or .out) is parsed once: the first access reads
// it with solver/outfile and writes a column file to a local cache
// directory; later accesses are served from an in-process LRU bounded in
// bytes, or, after eviction or a restart, from the column file (a straight
// copy of the columns, no parsing). The cache knows nothing of jobs or
// organizations: callers name each output by a key that is unique to its
// content (the job's output key and file name).
package resultcache

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// DefaultMaxBytes bounds the in-process LRU when New is given 0: about six
// records of 100 channels × 100 000 rows.
const DefaultMaxBytes = 512 << 20

// magic starts every column file; the digit is the format version.
const magic = "TSCOL1\n"

// Cache is safe for concurrent use. Concurrent first accesses of the same
// key parse the file once; the others wait for that result.
type Cache struct {
	dir      string
	maxBytes int64

	mu       sync.Mutex
	lru      *list.List // of *entry, most recent first
	entries  map[string]*list.Element
	loading  map[string]*load
	used     int64
	parses   int64 // outputs parsed from the original file, for tests
	fileHits int64 // records read back from a column file
}

type entry struct {
	key   string
	rec   *analysis.Record
	bytes int64
}

type load struct {
	done chan struct{}
	rec  *analysis.Record
	err  error
}

// New returns a cache writing column files under dir (created if needed)
// and holding at most maxBytes of decoded columns in memory (0 selects
// DefaultMaxBytes; a record larger than the bound is served but not kept).
func New(dir string, maxBytes int64) (*Cache, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("result cache: creating %s: %w", dir, err)
	}
	return &Cache{dir: dir, maxBytes: maxBytes, lru: list.New(),
		entries: map[string]*list.Element{}, loading: map[string]*load{}}, nil
}

// Stats reports how many outputs were parsed from their original file and
// how many were read back from a column file (both since New).
func (c *Cache) Stats() (parses, fileHits int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parses, c.fileHits
}

// Record returns the columns of the output identified by key. open is
// called only when neither memory nor the column file holds them; it
// returns the path of the original .outb/.out file and a release function.
// The returned record is shared: callers must not modify it.
func (c *Cache) Record(ctx context.Context, key string, open func(context.Context) (path string, release func(), err error)) (*analysis.Record, error) {
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.lru.MoveToFront(el)
		rec := el.Value.(*entry).rec
		c.mu.Unlock()
		return rec, nil
	}
	if l, ok := c.loading[key]; ok {
		c.mu.Unlock()
		select {
		case <-l.done:
			return l.rec, l.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	l := &load{done: make(chan struct{})}
	c.loading[key] = l
	c.mu.Unlock()

	l.rec, l.err = c.fill(ctx, key, open)

	c.mu.Lock()
	delete(c.loading, key)
	if l.err == nil {
		c.insert(key, l.rec)
	}
	c.mu.Unlock()
	close(l.done)
	return l.rec, l.err
}

// insert adds rec to the LRU and evicts from the back down to the bound.
// c.mu is held.
func (c *Cache) insert(key string, rec *analysis.Record) {
	size := recordBytes(rec)
	if size > c.maxBytes {
		return
	}
	c.entries[key] = c.lru.PushFront(&entry{key: key, rec: rec, bytes: size})
	c.used += size
	for c.used > c.maxBytes {
		back := c.lru.Back()
		e := back.Value.(*entry)
		c.lru.Remove(back)
		delete(c.entries, e.key)
		c.used -= e.bytes
	}
}

func recordBytes(rec *analysis.Record) int64 {
	return int64(len(rec.Time)) * int64(len(rec.Channels)+1) * 8
}

// path is the column file of key: a digest, so any key is a safe name.
func (c *Cache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:])+".tscol")
}

func (c *Cache) fill(ctx context.Context, key string, open func(context.Context) (string, func(), error)) (*analysis.Record, error) {
	colPath := c.path(key)
	if b, err := os.ReadFile(colPath); err == nil {
		rec, err := Decode(b)
		if err == nil {
			c.mu.Lock()
			c.fileHits++
			c.mu.Unlock()
			return rec, nil
		}
		// A damaged column file (disk full, older format) is rebuilt.
		_ = os.Remove(colPath)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("result cache: reading %s: %w", colPath, err)
	}

	src, release, err := open(ctx)
	if err != nil {
		return nil, err
	}
	f, err := outfile.ReadFile(src)
	release()
	if err != nil {
		return nil, fmt.Errorf("result cache: reading output %s: %w", filepath.Base(src), err)
	}
	c.mu.Lock()
	c.parses++
	c.mu.Unlock()
	rec := FromFile(f)
	if err := writeAtomic(colPath, Encode(rec)); err != nil {
		// The record is still good; only the next cold start pays again.
		return rec, nil
	}
	return rec, nil
}

// FromFile converts an output file to a record (sharing its columns).
func FromFile(f *outfile.File) *analysis.Record {
	rec := &analysis.Record{Time: f.Time, Names: make([]string, len(f.Channels)),
		Units: make([]string, len(f.Channels)), Channels: f.Data}
	for i, ch := range f.Channels {
		rec.Names[i], rec.Units[i] = ch.Name, ch.Unit
	}
	return rec
}

func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tscol-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// header is the JSON block after the magic. Float32[c] says channel c is
// stored in 4 bytes because every one of its samples converts to float32
// and back unchanged (always true for .outb files written in float32 or
// int16-packed form, whose values were float32 already); otherwise 8 bytes,
// so the cache never changes a value.
type header struct {
	Names   []string `json:"names"`
	Units   []string `json:"units"`
	Rows    int      `json:"rows"`
	Float32 []bool   `json:"float32"`
}

// Encode writes rec as a column file: magic, a little-endian uint32 length
// and the JSON header, the time column as float64, then each channel as
// float32 or float64 (see header).
func Encode(rec *analysis.Record) []byte {
	h := header{Names: rec.Names, Units: rec.Units, Rows: len(rec.Time), Float32: make([]bool, len(rec.Channels))}
	size := len(rec.Time) * 8
	for c, col := range rec.Channels {
		h.Float32[c] = exactFloat32(col)
		if h.Float32[c] {
			size += 4 * len(col)
		} else {
			size += 8 * len(col)
		}
	}
	hj, _ := json.Marshal(h) // strings and bools only: cannot fail
	b := make([]byte, 0, len(magic)+4+len(hj)+size)
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(hj)))
	b = append(b, hj...)
	for _, t := range rec.Time {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t))
	}
	for c, col := range rec.Channels {
		if h.Float32[c] {
			for _, v := range col {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
			}
		} else {
			for _, v := range col {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			}
		}
	}
	return b
}

func exactFloat32(col []float64) bool {
	for _, v := range col {
		if float64(float32(v)) != v && !math.IsNaN(v) {
			return false
		}
	}
	return true
}

// Decode reads a column file written by Encode.
func Decode(b []byte) (*analysis.Record, error) {
	if !bytes.HasPrefix(b, []byte(magic)) || len(b) < len(magic)+4 {
		return nil, errors.New("column file: bad magic")
	}
	b = b[len(magic):]
	n := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	if n > len(b) {
		return nil, errors.New("column file: truncated header")
	}
	var h header
	if err := json.Unmarshal(b[:n], &h); err != nil {
		return nil, fmt.Errorf("column file: header: %w", err)
	}
	b = b[n:]
	if len(h.Units) != len(h.Names) || len(h.Float32) != len(h.Names) || h.Rows < 0 {
		return nil, errors.New("column file: inconsistent header")
	}
	need := h.Rows * 8
	for _, f32 := range h.Float32 {
		if f32 {
			need += 4 * h.Rows
		} else {
			need += 8 * h.Rows
		}
	}
	if len(b) != need {
		return nil, fmt.Errorf("column file: %d data bytes, want %d", len(b), need)
	}
	rec := &analysis.Record{Names: h.Names, Units: h.Units, Time: make([]float64, h.Rows),
		Channels: make([][]float64, len(h.Names))}
	for i := range rec.Time {
		rec.Time[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	b = b[8*h.Rows:]
	for c, f32 := range h.Float32 {
		col := make([]float64, h.Rows)
		if f32 {
			for i := range col {
				col[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
			}
			b = b[4*h.Rows:]
		} else {
			for i := range col {
				col[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
			}
			b = b[8*h.Rows:]
		}
		rec.Channels[c] = col
	}
	return rec, nil
}
