# kexp plot; run `gnuplot cost_vs_n_gaussian_features_100.gp` here to redraw cost_vs_n_gaussian_features_100.svg
set terminal svg size 1000,730 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian_features_100.svg'
set title 'time against n: gaussian features=100 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 9
set label 100 'linear_svc: bias=regularized, c=1, epochs=1000, loss=hinge, tolerance=0.001' at screen 0.01, screen 0.1397 left font ',12'
set label 101 'svc: bias=regularized, c=1, cache_bytes=0, iterations=10000000, loss=hinge, shrinking=true, tolerance=0.001' at screen 0.01, screen 0.1096 left font ',12'
set label 102 'Crossover linear_svc / svc: not resolved: times below 1 ms at n = 250 or 500.' at screen 0.01, screen 0.0795 left font ',12'
set label 103 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0493 left font ',12'
set label 104 'The primal map''s dimension D = 100 is below every n drawn.' at screen 0.01, screen 0.0192 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '4000' 4000, '10000' 10000, '20000' 20000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
$line0 << EOD
250 0.000582655 0.000553027 0.0011010780000000001
500 0.0006478829999999999 0.000617339 0.001075201
1000 0.001374829 0.0013005699999999998 0.010158264
2000 0.0031453540000000004 0.002968539 0.004379104
4000 0.023968286 0.019619803999999998 0.028832398000000002
10000 0.039085537999999996 0.038837436 0.047382323000000004
20000 0.11597489999999999 0.114916564 0.131311242
40000 0.25385683400000003 0.25370436100000004 0.25662730500000003
100000 0.494793302 0.494643417 0.50222296
EOD
$line1 << EOD
250 0.000450731 0.00041607 0.000850415
500 0.001004696 0.0009031810000000001 0.0013515320000000001
1000 0.009015984 0.0032494670000000002 0.016053731999999998
2000 0.008428122000000001 0.008343960999999999 0.011627222999999999
4000 0.078763987 0.078738359 0.08281699
10000 0.19500226899999998 0.19494104899999998 0.19525227299999998
20000 0.711810291 0.7114373940000001 0.712012694
40000 2.9248269749999998 2.9248269749999998 2.9248269749999998
100000 32.50227274 32.50227274 32.50227274
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'svc (dual)'
