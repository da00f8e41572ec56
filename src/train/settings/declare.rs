//! The [`settings!`](crate::settings) macro: a configuration declared field by field.

/// Declares a trainer's configuration: the struct, its profile enum (with `ALL`, names and
/// course seeds) and its [`Settings`](crate::train::settings::Settings) implementation.
///
/// Each field is one entry: doc comment, name, Rust type, its default by profile name, group,
/// [`Kind`], Russian label and help, and optionally a unit. The default is written
/// `[VALUE]` (every profile) or `[VALUE; Profile: VALUE, …]`: the value of every profile not
/// named after the semicolon, then the profiles that differ, by their variant's name (the
/// compiler checks the names; naming one twice, or every one, is an unreachable pattern).
/// A new profile is then one line in the enum and one entry in each field it changes.
/// Relations between fields are written by hand in `fn check_relations`.
///
/// [`Kind`]: crate::train::settings::Kind
#[macro_export]
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident;
        $(#[$pmeta:meta])*
        pub enum $profile:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $pname:literal, seeds $seeds:expr, label $plabel:literal ),+ $(,)?
        }
        fields {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = [$base:expr $(; $($pv:ident : $pval:expr),+ $(,)?)?],
                $group:ident, $kind:expr, $label:literal, $help:literal $(, unit $unit:literal)?;
            )+
        }
        relations($this:ident) $relations:block
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )+
        }

        $(#[$pmeta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $profile {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $crate::train::settings::Profile for $profile {
            const ALL: &'static [Self] = &[$($profile::$variant),+];
            fn name(self) -> &'static str {
                match self { $( $profile::$variant => $pname, )+ }
            }
            fn seeds(self) -> &'static [u64] {
                match self { $( $profile::$variant => &$seeds, )+ }
            }
            fn label(self) -> &'static str {
                match self { $( $profile::$variant => $plabel, )+ }
            }
        }

        impl $name {
            /// The settings of the profile called `name`.
            pub fn profile(name: &str) -> $crate::Result<Self> {
                use $crate::train::settings::{Profile, Settings};
                Ok(Self::for_profile($profile::parse(name)?))
            }
        }

        impl std::str::FromStr for $profile {
            type Err = $crate::Error;
            fn from_str(s: &str) -> $crate::Result<Self> {
                <$profile as $crate::train::settings::Profile>::parse(s)
            }
        }

        impl std::fmt::Display for $profile {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::train::settings::Profile::name(*self))
            }
        }

        impl $crate::train::settings::Settings for $name {
            type Profile = $profile;
            const FIELDS: &'static [$crate::train::settings::Field] = &[
                $(
                    $crate::train::settings::Field {
                        name: stringify!($field),
                        kind: $kind,
                        group: $crate::train::settings::Group::$group,
                        label: $label,
                        help: $help,
                        unit: $crate::settings!(@unit $($unit)?),
                    },
                )+
            ];

            fn for_profile(profile: $profile) -> Self {
                $name {
                    $(
                        $field: {
                            let value: $ty = match profile {
                                $( $( $profile::$pv => $pval, )+ )?
                                _ => $base,
                            };
                            value
                        },
                    )+
                }
            }

            fn check_relations(&self) -> $crate::Result<()> {
                let $this = self;
                $relations
            }
        }
    };
    (@unit) => { None };
    (@unit $unit:literal) => { Some($unit) };
}
