//! [`Methods`]: the operations' methods for generic code, each bounded by its operation's trait
//! (defined by `ops`' list of operations, with the unary ones of `coalesce` and `inverse`
//! beside: a module above both, so that neither imports the other).

crate::ops::operations!(methods {
    /// `coalesce(self)`: [`Coalesce`](crate::coalesce::Coalesce)'s method.
    #[inline(always)]
    fn coalesce(&self) -> <Self as crate::coalesce::Coalesce>::Output
    where
        Self: crate::coalesce::Coalesce,
    {
        crate::coalesce::Coalesce::coalesce(*self)
    }
    /// `filter(self)`: [`Filter`](crate::coalesce::Filter)'s method.
    #[inline(always)]
    fn filter(&self) -> <Self as crate::coalesce::Filter>::Output
    where
        Self: crate::coalesce::Filter,
    {
        crate::coalesce::Filter::filter(*self)
    }
    /// `right_inverse(self)`: [`RightInverse`](crate::RightInverse)'s method.
    #[inline(always)]
    fn right_inverse(&self) -> <Self as crate::ops::RightInverse>::Output
    where
        Self: crate::ops::RightInverse,
    {
        crate::ops::RightInverse::right_inverse(*self)
    }
});
