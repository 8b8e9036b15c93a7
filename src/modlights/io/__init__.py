"""Reading and writing for the front ends (command line and web): files of states,
boards and pictures."""
