//! SVG pictures rendered by a real renderer (resvg), for tests that check the image:
//! the colour at a point, and how much of a colour a region holds.

pub struct Image {
    pixmap: resvg::tiny_skia::Pixmap,
}

impl Image {
    /// Renders an SVG document; panics with the renderer's reason if it is not one.
    pub fn render(svg: &str) -> Image {
        let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
            .unwrap_or_else(|e| panic!("not an SVG the renderer reads: {e}\n{svg}"));
        let size = tree.size().to_int_size();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
            .expect("a picture of non-zero size");
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        Image { pixmap }
    }

    pub fn size(&self) -> (u32, u32) {
        (self.pixmap.width(), self.pixmap.height())
    }

    /// The colour at a pixel, as `#rrggbb`.
    pub fn colour(&self, x: f64, y: f64) -> String {
        let p = self
            .pixmap
            .pixel(x as u32, y as u32)
            .unwrap_or_else(|| panic!("({x}, {y}) is outside the {:?} picture", self.size()));
        format!("#{:02x}{:02x}{:02x}", p.red(), p.green(), p.blue())
    }

    /// How many pixels of the rectangle have exactly this colour.
    pub fn count(&self, (x, y, w, h): (f64, f64, f64, f64), colour: &str) -> usize {
        let mut n = 0;
        for py in y as u32..(y + h) as u32 {
            for px in x as u32..(x + w) as u32 {
                if self.colour(px as f64, py as f64) == colour {
                    n += 1;
                }
            }
        }
        n
    }

    /// Writes the picture as PNG (to look at it while writing a test).
    #[allow(dead_code)]
    pub fn save(&self, path: &str) {
        self.pixmap.save_png(path).expect("the PNG is written");
    }
}
