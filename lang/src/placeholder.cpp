// placeholder until the compiler lands
