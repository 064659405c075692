//! The object-safe side of a generic type, derived by code: [`erased!`] takes one inherent
//! `impl` block of a type generic over its game and makes, from the same methods, the inherent
//! methods, an object-safe trait with their signatures, and the trait's implementation that
//! calls them. A method is written once; the trait that erases the game is never kept by hand.

/// Writes each method of the block once as an inherent method of `$Ty<G>`, declares it in the
/// trait `$Trait` (object-safe: `Send + Sync`, every method with `&self` or `&mut self`), and
/// implements `$Trait` for every `$Ty<G>` by calling the inherent method.
///
/// The methods take no generic parameters of their own (`'_` lifetimes only) and plain
/// `name: Type` arguments: what an erased layer can carry.
macro_rules! erased {
    (
        $(#[$trait_meta:meta])*
        $vis:vis trait $Trait:ident for $Ty:ident<$G:ident: $Bound:path> {
            $(
                $(#[$meta:meta])*
                fn $name:ident ( $($params:tt)* ) $(-> $ret:ty)? $body:block
            )*
        }
    ) => {
        $(#[$trait_meta])*
        $vis trait $Trait: Send + Sync {
            $( $crate::game::erased::erased!(@declare [$(#[$meta])*] $name ( $($params)* ) [$($ret)?]); )*
        }

        impl<$G: $Bound> $Ty<$G> {
            $( $(#[$meta])* pub fn $name ( $($params)* ) $(-> $ret)? $body )*
        }

        impl<$G: $Bound> $Trait for $Ty<$G> {
            $( $crate::game::erased::erased!(@forward [$Ty<$G>] $name ( $($params)* ) [$($ret)?]); )*
        }
    };
    (@declare [$($meta:tt)*] $name:ident ( $($params:tt)* ) [$($ret:ty)?]) => {
        $($meta)* fn $name ( $($params)* ) $(-> $ret)?;
    };
    (@forward [$Ty:ty] $name:ident ( &mut self $(, $arg:ident : $t:ty)* $(,)? ) [$($ret:ty)?]) => {
        fn $name (&mut self $(, $arg: $t)*) $(-> $ret)? { <$Ty>::$name(self $(, $arg)*) }
    };
    (@forward [$Ty:ty] $name:ident ( &self $(, $arg:ident : $t:ty)* $(,)? ) [$($ret:ty)?]) => {
        fn $name (&self $(, $arg: $t)*) $(-> $ret)? { <$Ty>::$name(self $(, $arg)*) }
    };
}

pub(crate) use erased;

#[cfg(test)]
mod tests {
    /// A stand-in for a game: one associated type the erased side never names.
    trait Counting: Send + Sync + 'static {
        type Count: Copy + Into<u64> + Send + Sync;
        fn step(&self) -> Self::Count;
    }

    struct Small;
    impl Counting for Small {
        type Count = u8;
        fn step(&self) -> u8 {
            2
        }
    }

    struct Big;
    impl Counting for Big {
        type Count = u32;
        fn step(&self) -> u32 {
            70_000
        }
    }

    struct Counter<C: Counting> {
        counting: C,
        total: u64,
    }

    erased! {
        /// A counter of any counting, erased.
        trait AnyCounter for Counter<C: Counting> {
            /// Counts `times` steps.
            fn count(&mut self, times: u64) {
                for _ in 0..times {
                    self.total += self.counting.step().into();
                }
            }

            /// The total so far.
            fn total(&self) -> u64 {
                self.total
            }
        }
    }

    #[test]
    fn the_derived_trait_calls_each_types_own_methods() {
        let mut counters: Vec<Box<dyn AnyCounter>> = vec![
            Box::new(Counter {
                counting: Small,
                total: 0,
            }),
            Box::new(Counter {
                counting: Big,
                total: 1,
            }),
        ];
        for counter in &mut counters {
            counter.count(3);
        }
        let totals: Vec<u64> = counters.iter().map(|c| c.total()).collect();
        assert_eq!(totals, [6, 210_001]);
        // The inherent methods are the same methods, typed.
        let mut typed = Counter {
            counting: Small,
            total: 0,
        };
        typed.count(1);
        assert_eq!(typed.total(), 2);
    }
}
