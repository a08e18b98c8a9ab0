extension Vector3 {
    /// The component `k` (0: x, 1: y, 2: z), for code that maps columns to axes.
    subscript(_ k: Int) -> Double {
        get { k == 0 ? x : (k == 1 ? y : z) }
        set {
            switch k {
            case 0: x = newValue
            case 1: y = newValue
            default: z = newValue
            }
        }
    }
}
