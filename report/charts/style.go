package charts

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MaxSeries is the most series a line chart draws (SeriesGroups splits a
// file's configurations into groups of at most this many): every one of
// them has a seriesStyle of its own.
const MaxSeries = 12

// palette holds ten colours that stay apart from each other and from the
// white background (matplotlib's "tab10").
var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, // blue
	{0xff, 0x7f, 0x0e, 0xff}, // orange
	{0x2c, 0xa0, 0x2c, 0xff}, // green
	{0xd6, 0x27, 0x28, 0xff}, // red
	{0x94, 0x67, 0xbd, 0xff}, // purple
	{0x8c, 0x56, 0x4b, 0xff}, // brown
	{0xe3, 0x77, 0xc2, 0xff}, // pink
	{0x7f, 0x7f, 0x7f, 0xff}, // grey
	{0xbc, 0xbd, 0x22, 0xff}, // olive
	{0x17, 0xbe, 0xcf, 0xff}, // cyan
}

// dashPatterns are the line patterns: solid, dashed, dotted, dash-dot.
var dashPatterns = [][]vg.Length{
	nil,
	{vg.Points(7), vg.Points(3)},
	{vg.Points(1.5), vg.Points(2.5)},
	{vg.Points(7), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)},
}

// glyphShapes are the point markers.
var glyphShapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.RingGlyph{},
	draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{},
}

// seriesStyle is how one series is drawn: a colour, a dash pattern and a
// point marker.
type seriesStyle struct {
	Color  color.RGBA
	Dashes []vg.Length
	Shape  draw.GlyphDrawer
}

// styleOf is the style of series i. Series 0 to 9 take the ten colours with
// solid lines, 10 to 19 the same colours dashed, and so on: the pair (colour,
// dash pattern) differs between any two of the first len(palette) ×
// len(dashPatterns) = 40 series. Markers cycle with another period (7), so
// two series of one colour differ in marker as well.
func styleOf(i int) seriesStyle {
	return gridStyle(i%len(palette), i/len(palette), i)
}

// gridStyle is the style of colour c, dash pattern d and marker m (each
// taken modulo its count): the scan chart gives colour to the cell and dash
// pattern to the other parameters' values.
func gridStyle(c, d, m int) seriesStyle {
	return seriesStyle{
		Color:  palette[c%len(palette)],
		Dashes: dashPatterns[d%len(dashPatterns)],
		Shape:  glyphShapes[m%len(glyphShapes)],
	}
}

// lineStyle is s as a line of the given width.
func (s seriesStyle) lineStyle(width vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: s.Color, Width: width, Dashes: s.Dashes}
}

// glyphStyle is s's marker of the given radius.
func (s seriesStyle) glyphStyle(radius vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: s.Color, Radius: radius, Shape: s.Shape}
}

// lighter is c mixed half and half with white: a fill that lets a darker
// outline and median line of the same colour show.
func lighter(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return uint8((uint16(v) + 255) / 2) }
	return color.RGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255}
}
