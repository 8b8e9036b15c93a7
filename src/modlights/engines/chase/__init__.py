"""The chase family: engines that solve a grid row by row (light chasing), carrying the
taps no cell forces as symbols and finishing with a small residual system."""
