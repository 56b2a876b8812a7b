//! The primitive types of the RADIANCE scene language, their classes and argument rules.

/// What a primitive is: a surface, or one of the kinds of modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// A geometric surface (polygon, sphere, …) or a distant source.
    Surface,
    /// A reference to other geometry (`instance`, `mesh`).
    Instance,
    /// A material, including light sources.
    Material,
    /// A pattern (changes the colour of what it modifies).
    Pattern,
    /// A texture (perturbs the surface normal).
    Texture,
    /// A mixture of two modifiers.
    Mixture,
    /// An alias of another modifier.
    Alias,
}

/// A count rule for one argument list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly this many.
    Exactly(usize),
    /// At least this many.
    AtLeast(usize),
    /// One of the listed counts.
    OneOf(&'static [usize]),
    /// A positive multiple of this number, at least `min` in total (polygon vertices).
    MultipleOf { step: usize, min: usize },
    /// At most this many.
    AtMost(usize),
}

impl Count {
    /// Does `n` satisfy the rule?
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Count::Exactly(k) => n == k,
            Count::AtLeast(k) => n >= k,
            Count::OneOf(ks) => ks.contains(&n),
            Count::MultipleOf { step, min } => n >= min && n.is_multiple_of(step),
            Count::AtMost(k) => n <= k,
        }
    }

    /// The rule in words, for error messages.
    pub fn describe(self) -> String {
        match self {
            Count::Exactly(k) => format!("exactly {k}"),
            Count::AtLeast(k) => format!("at least {k}"),
            Count::OneOf(ks) => {
                let v: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
                format!("one of {}", v.join(", "))
            }
            Count::MultipleOf { step, min } => format!("a multiple of {step}, at least {min}"),
            Count::AtMost(k) => format!("at most {k}"),
        }
    }
}

macro_rules! prim_types {
    ($( $variant:ident = $name:literal, $class:ident, s: $s:expr, r: $r:expr, files: $files:expr ;)*) => {
        /// Every primitive type RADIANCE 6.0a knows, by its keyword.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum PrimType { $($variant),* }

        impl PrimType {
            /// All types, in declaration order.
            pub const ALL: &'static [PrimType] = &[$(PrimType::$variant),*];

            /// The keyword used in scene files.
            pub fn name(self) -> &'static str {
                match self { $(PrimType::$variant => $name),* }
            }

            /// Looks a type up by its keyword.
            pub fn from_name(s: &str) -> Option<PrimType> {
                match s { $($name => Some(PrimType::$variant),)* _ => None }
            }

            /// The class of this type.
            pub fn class(self) -> Class {
                match self { $(PrimType::$variant => Class::$class),* }
            }

            /// How many string arguments this type takes.
            pub fn string_count(self) -> Count {
                match self { $(PrimType::$variant => $s),* }
            }

            /// How many real arguments this type takes.
            pub fn real_count(self) -> Count {
                match self { $(PrimType::$variant => $r),* }
            }

            /// Indices of string arguments naming files: `(function file, data/picture files)`.
            /// The function file may be `.` for none.
            pub fn file_args(self) -> FileArgs {
                match self { $(PrimType::$variant => $files),* }
            }
        }
    };
}

/// Which string arguments of a type name files that must exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileArgs {
    /// Index of the `.cal` function file, if the type has one.
    pub funcfile: Option<usize>,
    /// Indices of data, picture or BSDF files.
    pub data: &'static [usize],
}

const NOFILES: FileArgs = FileArgs {
    funcfile: None,
    data: &[],
};
const fn func(i: usize) -> FileArgs {
    FileArgs {
        funcfile: Some(i),
        data: &[],
    }
}
const fn funcdata(i: usize, data: &'static [usize]) -> FileArgs {
    FileArgs {
        funcfile: Some(i),
        data,
    }
}

use Count::*;
const Z: Count = Exactly(0);
const ANY: Count = AtLeast(0);

prim_types! {
    // Surfaces.
    Polygon = "polygon", Surface, s: Z, r: MultipleOf { step: 3, min: 9 }, files: NOFILES;
    Cone = "cone", Surface, s: Z, r: Exactly(8), files: NOFILES;
    Sphere = "sphere", Surface, s: Z, r: Exactly(4), files: NOFILES;
    Ring = "ring", Surface, s: Z, r: Exactly(8), files: NOFILES;
    Cylinder = "cylinder", Surface, s: Z, r: Exactly(7), files: NOFILES;
    Cup = "cup", Surface, s: Z, r: Exactly(8), files: NOFILES;
    Bubble = "bubble", Surface, s: Z, r: Exactly(4), files: NOFILES;
    Tube = "tube", Surface, s: Z, r: Exactly(7), files: NOFILES;
    Source = "source", Surface, s: Z, r: Exactly(4), files: NOFILES;
    Instance = "instance", Instance, s: AtLeast(1), r: Z, files: funcdata(usize::MAX, &[0]);
    Mesh = "mesh", Instance, s: AtLeast(1), r: Z, files: funcdata(usize::MAX, &[0]);
    // Materials.
    Plastic = "plastic", Material, s: Z, r: Exactly(5), files: NOFILES;
    Metal = "metal", Material, s: Z, r: Exactly(5), files: NOFILES;
    Trans = "trans", Material, s: Z, r: Exactly(7), files: NOFILES;
    Plastic2 = "plastic2", Material, s: AtLeast(4), r: Exactly(6), files: func(3);
    Metal2 = "metal2", Material, s: AtLeast(4), r: Exactly(6), files: func(3);
    Trans2 = "trans2", Material, s: AtLeast(4), r: Exactly(8), files: func(3);
    Ashik2 = "ashik2", Material, s: AtLeast(4), r: Exactly(8), files: func(3);
    Mirror = "mirror", Material, s: AtMost(1), r: Exactly(3), files: NOFILES;
    Glass = "glass", Material, s: Z, r: OneOf(&[3, 4]), files: NOFILES;
    Dielectric = "dielectric", Material, s: Z, r: Exactly(5), files: NOFILES;
    Interface = "interface", Material, s: Z, r: Exactly(8), files: NOFILES;
    Light = "light", Material, s: Z, r: Exactly(3), files: NOFILES;
    Glow = "glow", Material, s: Z, r: Exactly(4), files: NOFILES;
    Illum = "illum", Material, s: AtMost(1), r: Exactly(3), files: NOFILES;
    Spotlight = "spotlight", Material, s: Z, r: Exactly(7), files: NOFILES;
    Mist = "mist", Material, s: ANY, r: OneOf(&[0, 3, 6, 7]), files: NOFILES;
    Antimatter = "antimatter", Material, s: ANY, r: Z, files: NOFILES;
    Plasfunc = "plasfunc", Material, s: AtLeast(2), r: AtLeast(4), files: func(1);
    Metfunc = "metfunc", Material, s: AtLeast(2), r: AtLeast(4), files: func(1);
    Transfunc = "transfunc", Material, s: AtLeast(2), r: AtLeast(6), files: func(1);
    BrtdFunc = "BRTDfunc", Material, s: AtLeast(10), r: AtLeast(9), files: func(9);
    WgmdFunc = "WGMDfunc", Material, s: AtLeast(13), r: AtLeast(9), files: func(12);
    Plasdata = "plasdata", Material, s: AtLeast(3), r: AtLeast(4), files: funcdata(2, &[1]);
    Metdata = "metdata", Material, s: AtLeast(3), r: AtLeast(4), files: funcdata(2, &[1]);
    Transdata = "transdata", Material, s: AtLeast(3), r: AtLeast(6), files: funcdata(2, &[1]);
    Bsdf = "BSDF", Material, s: AtLeast(6), r: OneOf(&[0, 3, 6, 9]), files: funcdata(5, &[1]);
    ABsdf = "aBSDF", Material, s: AtLeast(5), r: OneOf(&[0, 3, 6, 9]), files: funcdata(4, &[0]);
    Prism1 = "prism1", Material, s: AtLeast(5), r: ANY, files: func(4);
    Prism2 = "prism2", Material, s: AtLeast(9), r: ANY, files: func(8);
    // Patterns.
    Brightfunc = "brightfunc", Pattern, s: AtLeast(2), r: ANY, files: func(1);
    Colorfunc = "colorfunc", Pattern, s: AtLeast(4), r: ANY, files: func(3);
    Brightdata = "brightdata", Pattern, s: AtLeast(3), r: ANY, files: funcdata(2, &[1]);
    Colordata = "colordata", Pattern, s: AtLeast(7), r: ANY, files: funcdata(6, &[3, 4, 5]);
    Colorpict = "colorpict", Pattern, s: AtLeast(5), r: ANY, files: funcdata(4, &[3]);
    Brighttext = "brighttext", Pattern, s: AtLeast(2), r: AtLeast(11), files: NOFILES;
    Colortext = "colortext", Pattern, s: AtLeast(2), r: AtLeast(15), files: NOFILES;
    Spectrum = "spectrum", Pattern, s: Z, r: AtLeast(5), files: NOFILES;
    Specfile = "specfile", Pattern, s: Exactly(1), r: OneOf(&[0, 1]), files: funcdata(usize::MAX, &[0]);
    Specfunc = "specfunc", Pattern, s: AtLeast(2), r: AtLeast(2), files: func(1);
    Specdata = "specdata", Pattern, s: AtLeast(3), r: ANY, files: funcdata(2, &[1]);
    Specpict = "specpict", Pattern, s: AtLeast(5), r: ANY, files: funcdata(2, &[1]);
    // Textures.
    Texfunc = "texfunc", Texture, s: AtLeast(4), r: ANY, files: func(3);
    Texdata = "texdata", Texture, s: AtLeast(8), r: ANY, files: funcdata(6, &[3, 4, 5]);
    // Mixtures.
    Mixfunc = "mixfunc", Mixture, s: AtLeast(4), r: ANY, files: func(3);
    Mixdata = "mixdata", Mixture, s: AtLeast(5), r: ANY, files: funcdata(4, &[3]);
    Mixpict = "mixpict", Mixture, s: AtLeast(5), r: ANY, files: funcdata(4, &[3]);
    Mixtext = "mixtext", Mixture, s: AtLeast(4), r: AtLeast(9), files: NOFILES;
    // Alias (arguments are a single reference word, handled by the reader).
    Alias = "alias", Alias, s: Z, r: Z, files: NOFILES;
}

impl PrimType {
    /// Surfaces are things rays hit; every other type modifies something.
    pub fn is_modifier(self) -> bool {
        !matches!(self.class(), Class::Surface | Class::Instance)
    }

    /// Is this a light-emitting material (`light`, `glow`, `illum`, `spotlight`)?
    pub fn is_light(self) -> bool {
        matches!(
            self,
            PrimType::Light | PrimType::Glow | PrimType::Illum | PrimType::Spotlight
        )
    }

    /// Types whose string arguments end with a coordinate transform (after the function file),
    /// so that `xform` appends its own transform to them, as RADIANCE's xform does.
    pub fn takes_transform(self) -> bool {
        self.file_args().funcfile.is_some()
    }

    /// The surface type with its normal reversed (`xform -I`).
    pub fn inverted(self) -> PrimType {
        match self {
            PrimType::Sphere => PrimType::Bubble,
            PrimType::Bubble => PrimType::Sphere,
            PrimType::Cone => PrimType::Cup,
            PrimType::Cup => PrimType::Cone,
            PrimType::Cylinder => PrimType::Tube,
            PrimType::Tube => PrimType::Cylinder,
            t => t,
        }
    }

    /// The function-file string index, if the type has a real one (`instance`/`mesh` have none).
    pub fn funcfile_index(self) -> Option<usize> {
        self.file_args().funcfile.filter(|&i| i != usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &t in PrimType::ALL {
            assert_eq!(PrimType::from_name(t.name()), Some(t));
        }
        assert_eq!(PrimType::ALL.len(), 59);
        assert_eq!(PrimType::from_name("Plastic"), None);
    }

    #[test]
    fn counts() {
        let r = PrimType::Polygon.real_count();
        assert!(r.accepts(9) && r.accepts(12) && !r.accepts(6) && !r.accepts(10));
        assert!(PrimType::Glass.real_count().accepts(4));
        assert!(!PrimType::Glass.real_count().accepts(5));
        assert!(PrimType::Mirror.string_count().accepts(0));
        assert!(PrimType::Mirror.string_count().accepts(1));
        assert!(!PrimType::Mirror.string_count().accepts(2));
    }
}
