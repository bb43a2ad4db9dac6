# kexp plot; run `gnuplot test_accuracy_vs_solver.lambda.gp` here to redraw test_accuracy_vs_solver.lambda.svg
set terminal svg size 1000,708 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_solver.lambda.svg'
set title 'test accuracy against λ'
set xlabel 'λ (solver.lambda)'
set ylabel 'test accuracy (dashed: validation accuracy)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'fisher information=empirical · kernel_ridge_classifier (dual): the cell with the highest validation_accuracy over kernel.components at each value.' at screen 0.01, screen 0.1130 left font ',12'
set label 101 'gaussian map=none · kernel_ridge_classifier (dual): the cell with the highest validation_accuracy over kernel.sigma at each value.' at screen 0.01, screen 0.0819 left font ',12'
set label 102 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0508 left font ',12'
set label 103 'Dashed: validation_accuracy on the training part, bars ± one standard deviation over the folds.' at screen 0.01, screen 0.0198 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.001' 0.001, '0.01' 0.01, '0.1' 0.1, '1' 1)
set logscale x
$line0 << EOD
0.001 0.9916666666666667 0.9833333333333334 1
0.01 0.9916666666666667 0.9833333333333334 1
0.1 0.9916666666666667 0.9833333333333334 1
1 0.9916666666666667 0.9833333333333334 1
EOD
$line1 << EOD
0.001 0.9930555555555555 0.9918527424947438 0.9942583686163672
0.01 0.9930555555555555 0.9918527424947438 0.9942583686163672
0.1 0.9930555555555555 0.9918527424947438 0.9942583686163672
1 0.9930555555555555 0.9918527424947438 0.9942583686163672
EOD
$line2 << EOD
0.001 0.9972222222222222 0.9924109699789754 1.002033474465469
0.01 1 1 1
0.1 0.9972222222222222 0.9924109699789754 1.002033474465469
1 0.9972222222222222 0.9924109699789754 1.002033474465469
EOD
$line3 << EOD
0.001 0.9930555555555557 0.9894471163731205 0.9966639947379908
0.01 0.9951388888888889 0.9918527424947439 0.998425035283034
0.1 0.9944444444444445 0.992038818322821 0.9968500705660679
1 0.99375 0.9913443738783766 0.9961556261216234
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'fisher information=empirical · kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title '  validation', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'gaussian map=none · kernel_ridge_classifier (dual)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#D55E00' title '  validation'
