TOOLS	+= dumpconv

$(B)/bin/dumpconv: $(B)/convert/dumpconv.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)
