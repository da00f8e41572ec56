//! What a figure has drawn so far, in backend pixels, so that its legends can go where no data
//! is: [`Recording`] wraps the backend (the page's canvas, the native SVG) and logs every line,
//! path, polygon, rectangle and circle in a thread-local log that [`super::theme`]'s legend
//! placement reads. Integer pixels only: the same figure places its legend the same natively
//! and in the browser.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use std::cell::RefCell;

/// One drawn shape, in backend pixels.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A line or an open path.
    Path(Vec<BackendCoord>),
    /// A filled polygon (an area, a band).
    Polygon(Vec<BackendCoord>),
    /// A rectangle: corners, filled or outlined.
    Rect(BackendCoord, BackendCoord, bool),
    /// A circle (a marker): centre and radius.
    Circle(BackendCoord, i32),
}

/// A drawn shape with its colour (RGB) and stroke width.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// The shape.
    pub shape: Shape,
    /// Its colour.
    pub rgb: (u8, u8, u8),
    /// Its stroke width in backend pixels (0 for fills).
    pub width: u32,
    /// Its opacity.
    pub alpha: f64,
}

/// A box in backend pixels: `(left, top)` to `(right, bottom)`, both inclusive.
pub type PixelBox = (BackendCoord, BackendCoord);

/// A legend as drawn: its box, and whether that box was free of data (false when no candidate
/// position was free and the least-covered one was taken).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LegendBox {
    /// The box.
    pub rect: PixelBox,
    /// Whether no data mark crosses it.
    pub free: bool,
    /// How many marks were drawn before it (the data it must not cover are among these).
    pub after: usize,
}

#[derive(Default)]
struct Log {
    marks: Vec<Mark>,
    legends: Vec<LegendBox>,
    /// How many renderings were drawn again with their legends in rows.
    relaid: usize,
}

/// A point in the log: how many marks and legends had been drawn.
#[derive(Debug, Clone, Copy)]
pub struct Checkpoint {
    marks: usize,
    legends: usize,
}

std::thread_local! {
    static LOG: RefCell<Log> = RefCell::new(Log::default());
    static FIXED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static MUTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every [`Recording`] on this thread logging but not drawing: a figure laid out
/// to see where its legends would go, with nothing on the canvas or in the SVG.
pub fn muted<T>(f: impl FnOnce() -> T) -> T {
    struct Unmute(bool);
    impl Drop for Unmute {
        fn drop(&mut self) {
            MUTED.with(|m| m.set(self.0));
        }
    }
    let _restore = Unmute(MUTED.with(|m| m.replace(true)));
    f()
}

fn drawing() -> bool {
    !MUTED.with(|m| m.get())
}

/// With `true`, every legend drawn afterwards on this thread takes the upper-left corner
/// whatever is there, as the fixed placements before did: for the test that shows the
/// check finds legends on data.
#[doc(hidden)]
pub fn fixed_corner(on: bool) {
    FIXED.with(|f| f.set(on));
}

/// The marks drawn since the last [`Recording`] was made.
pub fn drawn() -> Vec<Mark> {
    LOG.with(|l| l.borrow().marks.clone())
}

/// The legends drawn since the last [`Recording`] was made.
pub fn legends() -> Vec<LegendBox> {
    LOG.with(|l| l.borrow().legends.clone())
}

/// Calls `f` with the marks drawn so far.
pub fn with_marks<T>(f: impl FnOnce(&[Mark]) -> T) -> T {
    LOG.with(|l| f(&l.borrow().marks))
}

/// Where the log stands now.
pub fn checkpoint() -> Checkpoint {
    LOG.with(|l| {
        let l = l.borrow();
        Checkpoint {
            marks: l.marks.len(),
            legends: l.legends.len(),
        }
    })
}

/// Whether every legend drawn since `at` found a free place (always, with [`fixed_corner`]
/// on: the old placement is kept whatever it covers).
pub fn legends_free_since(at: Checkpoint) -> bool {
    FIXED.with(|f| f.get()) || LOG.with(|l| l.borrow().legends[at.legends..].iter().all(|b| b.free))
}

/// Forgets what was logged since `at` (a muted layout about to be drawn for real), counting it
/// when the figure's legends go to rows ([`relaid`]).
pub fn rewind(at: Checkpoint, rows: bool) {
    LOG.with(|l| {
        let mut l = l.borrow_mut();
        l.marks.truncate(at.marks);
        l.legends.truncate(at.legends);
        l.relaid += usize::from(rows);
    });
}

/// How many figures were drawn with their legends in rows (no free place inside) since the
/// last [`Recording`] was made.
pub fn relaid() -> usize {
    LOG.with(|l| l.borrow().relaid)
}

pub(crate) fn log_legend(legend: LegendBox) {
    LOG.with(|l| l.borrow_mut().legends.push(legend));
}

fn log(shape: Shape, style: &impl BackendStyle, filled: bool) {
    let BackendColor { alpha, rgb } = style.color();
    if alpha <= 0.0 {
        return;
    }
    let width = if filled { 0 } else { style.stroke_width() };
    LOG.with(|l| {
        l.borrow_mut().marks.push(Mark {
            shape,
            rgb,
            width,
            alpha,
        })
    });
}

/// A backend that draws on `inner` and logs what it drew (text excepted) for legend placement.
/// Making one starts a new log.
pub struct Recording<B> {
    inner: B,
}

impl<B: DrawingBackend> Recording<B> {
    /// Wraps `inner`, clearing the log.
    pub fn new(inner: B) -> Self {
        LOG.with(|l| *l.borrow_mut() = Log::default());
        Recording { inner }
    }
}

type Drawn<E> = Result<(), DrawingErrorKind<E>>;

impl<B: DrawingBackend> DrawingBackend for Recording<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Drawn<B::ErrorType> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Drawn<B::ErrorType> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn<B::ErrorType> {
        if !drawing() {
            return Ok(());
        }
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn<B::ErrorType> {
        log(Shape::Path(vec![from, to]), style, false);
        if !drawing() {
            return Ok(());
        }
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn<B::ErrorType> {
        log(Shape::Rect(upper_left, bottom_right, fill), style, fill);
        if !drawing() {
            return Ok(());
        }
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn<B::ErrorType> {
        let path: Vec<BackendCoord> = path.into_iter().collect();
        log(Shape::Path(path.clone()), style, false);
        if !drawing() {
            return Ok(());
        }
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn<B::ErrorType> {
        log(Shape::Circle(center, radius as i32), style, fill);
        if !drawing() {
            return Ok(());
        }
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn<B::ErrorType> {
        let vert: Vec<BackendCoord> = vert.into_iter().collect();
        log(Shape::Polygon(vert.clone()), style, true);
        if !drawing() {
            return Ok(());
        }
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn<B::ErrorType> {
        if !drawing() {
            return Ok(());
        }
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        self.inner.estimate_text_size(text, style)
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (w, h): (u32, u32),
        src: &[u8],
    ) -> Drawn<B::ErrorType> {
        if !drawing() {
            return Ok(());
        }
        self.inner.blit_bitmap(pos, (w, h), src)
    }
}

fn inside((x, y): BackendCoord, ((l, t), (r, b)): PixelBox) -> bool {
    l <= x && x <= r && t <= y && y <= b
}

fn orient(a: BackendCoord, b: BackendCoord, c: BackendCoord) -> i64 {
    let (ax, ay, bx, by, cx, cy) = (
        i64::from(a.0),
        i64::from(a.1),
        i64::from(b.0),
        i64::from(b.1),
        i64::from(c.0),
        i64::from(c.1),
    );
    ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)).signum()
}

/// Whether the segments `p`–`q` and `r`–`s` share a point (touching counts).
fn segments_cross(p: BackendCoord, q: BackendCoord, r: BackendCoord, s: BackendCoord) -> bool {
    let (d1, d2, d3, d4) = (
        orient(r, s, p),
        orient(r, s, q),
        orient(p, q, r),
        orient(p, q, s),
    );
    if d1 == 0 && d2 == 0 {
        // Collinear: they meet when their extents do.
        return bounds(&[p, q])
            .zip(bounds(&[r, s]))
            .is_some_and(|(a, b)| overlap(a, b));
    }
    d1 * d2 <= 0 && d3 * d4 <= 0
}

/// Whether the segment `p`–`q` has a point in `rect`.
fn segment_meets(p: BackendCoord, q: BackendCoord, rect: PixelBox) -> bool {
    if inside(p, rect) || inside(q, rect) {
        return true;
    }
    let ((l, t), (r, b)) = rect;
    let corners = [(l, t), (r, t), (r, b), (l, b)];
    (0..4).any(|i| segments_cross(p, q, corners[i], corners[(i + 1) % 4]))
}

/// Whether `point` lies inside the polygon `vert` (even-odd rule, integer arithmetic).
fn in_polygon((x, y): BackendCoord, vert: &[BackendCoord]) -> bool {
    let mut odd = false;
    for i in 0..vert.len() {
        let (a, b) = (vert[i], vert[(i + 1) % vert.len()]);
        if (a.1 > y) != (b.1 > y) {
            // x of the edge at height y, compared without division.
            let lhs = i64::from(x - a.0) * i64::from(b.1 - a.1);
            let rhs = i64::from(b.0 - a.0) * i64::from(y - a.1);
            if (b.1 > a.1 && lhs < rhs) || (b.1 < a.1 && lhs > rhs) {
                odd = !odd;
            }
        }
    }
    odd
}

fn bounds(points: &[BackendCoord]) -> Option<PixelBox> {
    let first = *points.first()?;
    Some(
        points
            .iter()
            .fold((first, first), |((l, t), (r, b)), &(x, y)| {
                ((l.min(x), t.min(y)), (r.max(x), b.max(y)))
            }),
    )
}

fn overlap(((l1, t1), (r1, b1)): PixelBox, ((l2, t2), (r2, b2)): PixelBox) -> bool {
    l1 <= r2 && l2 <= r1 && t1 <= b2 && t2 <= b1
}

/// Whether `shape` has a point (a vertex, a stretch of line, a filled part) in `rect`.
pub fn covers(shape: &Shape, rect: PixelBox) -> bool {
    match shape {
        Shape::Path(points) => {
            if !bounds(points).is_some_and(|b| overlap(b, rect)) {
                return false;
            }
            points.iter().any(|&p| inside(p, rect))
                || points.windows(2).any(|w| segment_meets(w[0], w[1], rect))
        }
        Shape::Polygon(vert) => {
            if !bounds(vert).is_some_and(|b| overlap(b, rect)) {
                return false;
            }
            let ((l, t), (r, b)) = rect;
            vert.iter().any(|&p| inside(p, rect))
                || (0..vert.len()).any(|i| segment_meets(vert[i], vert[(i + 1) % vert.len()], rect))
                || [(l, t), (r, t), (r, b), (l, b)]
                    .iter()
                    .any(|&c| in_polygon(c, vert))
        }
        Shape::Rect((l, t), (r, b), true) => {
            overlap(((*l.min(r), *t.min(b)), (*l.max(r), *t.max(b))), rect)
        }
        Shape::Rect((l, t), (r, b), false) => {
            let path = [(*l, *t), (*r, *t), (*r, *b), (*l, *b), (*l, *t)];
            path.windows(2).any(|w| segment_meets(w[0], w[1], rect))
        }
        Shape::Circle((x, y), radius) => {
            overlap(((x - radius, y - radius), (x + radius, y + radius)), rect)
        }
    }
}

/// How many of `marks` have a point in `rect`.
pub fn covering(marks: &[&Mark], rect: PixelBox) -> usize {
    marks.iter().filter(|m| covers(&m.shape, rect)).count()
}

/// The position of a `size` box in `area` (both in backend pixels) that no data mark covers:
/// the first free one of the candidates in a fixed order (upper right, upper left, lower right,
/// lower left, then along the top and the bottom edges, then a grid over the whole area, all
/// `margin` from its edges). `Err` with the least-covered candidate when none is free.
pub fn free_spot(
    marks: &[&Mark],
    area: PixelBox,
    size: (i32, i32),
    margin: i32,
) -> Result<PixelBox, PixelBox> {
    let ((l, t), (r, b)) = area;
    let (w, h) = size;
    let (x0, y0) = (l + margin, t + margin);
    let (x1, y1) = ((r - margin - w).max(x0), (b - margin - h).max(y0));
    let mut candidates = vec![(x1, y0), (x0, y0), (x1, y1), (x0, y1)];
    const COLUMNS: i32 = 16;
    const ROWS: i32 = 12;
    for y in [y0, y1] {
        for i in (1..COLUMNS).rev() {
            candidates.push((x0 + (x1 - x0) * i / COLUMNS, y));
        }
    }
    for j in 1..ROWS {
        for i in (0..=COLUMNS).rev() {
            candidates.push((x0 + (x1 - x0) * i / COLUMNS, y0 + (y1 - y0) * j / ROWS));
        }
    }
    let near: Vec<&Mark> = marks
        .iter()
        .copied()
        .filter(|m| covers_bounds(&m.shape, area))
        .collect();
    if FIXED.with(|f| f.get()) {
        let rect = ((x0, y0), (x0 + w, y0 + h));
        return if covering(&near, rect) == 0 {
            Ok(rect)
        } else {
            Err(rect)
        };
    }
    let mut best: Option<(usize, PixelBox)> = None;
    for (x, y) in candidates {
        let rect = ((x, y), (x + w, y + h));
        let hits = covering(&near, rect);
        if hits == 0 {
            return Ok(rect);
        }
        if best.is_none_or(|(fewest, _)| hits < fewest) {
            best = Some((hits, rect));
        }
    }
    Err(best.map_or(((x1, y0), (x1 + w, y0 + h)), |(_, rect)| rect))
}

/// Whether `shape`'s bounding box meets `area` (a cheap filter before the exact tests).
fn covers_bounds(shape: &Shape, area: PixelBox) -> bool {
    let bounds = match shape {
        Shape::Path(p) | Shape::Polygon(p) => bounds(p),
        Shape::Rect(a, c, _) => bounds(&[*a, *c]),
        Shape::Circle((x, y), r) => Some(((x - r, y - r), (x + r, y + r))),
    };
    bounds.is_some_and(|b| overlap(b, area))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_is_covered_by_a_line_through_it_but_not_by_one_beside_it() {
        let rect = ((10, 10), (20, 20));
        assert!(covers(&Shape::Path(vec![(0, 15), (30, 15)]), rect));
        assert!(covers(&Shape::Path(vec![(0, 0), (30, 30)]), rect));
        assert!(!covers(&Shape::Path(vec![(0, 25), (30, 25)]), rect));
        assert!(covers(
            &Shape::Polygon(vec![(0, 0), (100, 0), (100, 100), (0, 100)]),
            rect
        ));
        assert!(!covers(
            &Shape::Polygon(vec![(30, 0), (100, 0), (100, 100)]),
            rect
        ));
        assert!(covers(&Shape::Circle((22, 22), 3), rect));
        assert!(!covers(&Shape::Circle((30, 30), 3), rect));
        assert!(covers(&Shape::Rect((15, 15), (40, 40), true), rect));
        assert!(!covers(&Shape::Rect((0, 0), (40, 40), false), rect));
    }

    #[test]
    fn the_first_free_corner_is_taken_and_the_least_covered_when_none_is() {
        let line = Mark {
            shape: Shape::Path(vec![(0, 5), (200, 5)]),
            rgb: (0, 0, 255),
            width: 2,
            alpha: 1.0,
        };
        let area = ((0, 0), (200, 100));
        // The line along the top leaves the lower right corner first.
        assert_eq!(
            free_spot(&[&line], area, (40, 20), 4),
            Ok(((156, 76), (196, 96)))
        );
        let fill = Mark {
            shape: Shape::Rect((0, 0), (200, 100), true),
            rgb: (0, 0, 255),
            width: 0,
            alpha: 1.0,
        };
        assert!(free_spot(&[&line, &fill], area, (40, 20), 4).is_err());
    }
}
