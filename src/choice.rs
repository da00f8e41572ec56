//! The [`choice!`](crate::choice) macro: a setting's choice as an enum whose names are written
//! once. The serde name, the schema's list (`NAMES`, for `Kind::Choice`), `name()`, `Display`
//! and, when asked, `FromStr` all come from the one `Variant = "name"` list.

/// Declares an enum of named choices: `Variant = "name"` per variant (doc comments allowed),
/// deriving serde with those names, `ALL` (the variants in order; another name may be given
/// after the enum's, e.g. `Reduction as EVERY`), `NAMES`, `name()` and `Display`. With
/// `parse Name::X`, also `FromStr`, whose error names the known choices as an unknown `X`.
#[macro_export]
macro_rules! choice {
    (
        $(#[$meta:meta])*
        pub enum $name:ident $(as $all:ident)? $(, parse $what:path)? {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant, )+
        }

        impl $name {
            $crate::choice!(@all $name [$($name::$variant),+] $($all)?);

            /// Every variant, in order (whatever `ALL` is called; `FromStr` reads it).
            #[allow(dead_code)]
            const VARIANTS: [$name; [$($text),+].len()] = [$($name::$variant),+];

            /// The names used in settings, links and JSON (the schema's choices), in order.
            pub const NAMES: [&'static str; [$($text),+].len()] = [$($text),+];

            /// The name used in settings, links and JSON.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        $(
            impl std::str::FromStr for $name {
                type Err = $crate::Error;
                fn from_str(s: &str) -> $crate::Result<Self> {
                    $name::VARIANTS
                        .into_iter()
                        .find(|v| v.name() == s)
                        .ok_or_else(|| $crate::Error::unknown($what, s, &$name::NAMES))
                }
            }
        )?
    };
    (@all $name:ident [$($v:expr),+]) => {
        /// Every variant, in order.
        pub const ALL: [$name; [$(stringify!($v)),+].len()] = [$($v),+];
    };
    (@all $name:ident [$($v:expr),+] $all:ident) => {
        /// Every variant, in order.
        pub const $all: [$name; [$(stringify!($v)),+].len()] = [$($v),+];
    };
}

#[cfg(test)]
mod tests {
    crate::choice! {
        /// A test choice.
        pub enum Two, parse crate::error::Name::Task {
            /// The first.
            OneThing = "one_thing",
            /// The second.
            Other = "other",
        }
    }

    #[test]
    fn the_one_list_names_serde_the_schema_display_and_parsing() {
        assert_eq!(Two::NAMES, ["one_thing", "other"]);
        assert_eq!(Two::ALL, [Two::OneThing, Two::Other]);
        for v in Two::ALL {
            let json = serde_json::to_value(v).unwrap();
            assert_eq!(json, v.name());
            assert_eq!(v.to_string(), v.name());
            assert_eq!(v.name().parse::<Two>().unwrap(), v);
        }
        let err = "three".parse::<Two>().unwrap_err().to_string();
        assert!(err.contains("one_thing") && err.contains("other"), "{err}");
    }
}
